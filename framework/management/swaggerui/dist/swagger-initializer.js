// The service's own start-up of Swagger UI: the vendored index.html loads
// this file in place of the distribution's, which points at a demo API.
// The document's URL is relative, so the page works behind any prefix.
window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: "../v3/api-docs",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
  });
};
