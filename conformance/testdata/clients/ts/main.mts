// Calls a running greeter through openapi-fetch, typed by the paths that
// openapi-typescript generates from greeter's /v3/api-docs
// (TestGeneratedClients in conformance/clients_test.go writes them to
// schema.d.ts beside this file and compiles both with tsc): the greeting,
// then a message created, listed, fetched back and searched for. Exits 1
// with what was wrong.
//
// Usage: node main.mjs http://127.0.0.1:PORT
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

// Node's process, declared here rather than with @types/node.
declare const process: { argv: string[]; exitCode?: number };

async function run(baseUrl: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });

  // hello
  const hello = await client.GET("/api/hello");
  if (hello.data?.text !== "Hello World!") {
    throw new Error(`hello: ${hello.response.status} ${JSON.stringify(hello.data ?? hello.error)}, want text "Hello World!"`);
  }

  // create
  const text = `from the TypeScript client ${Date.now()}`;
  const created = await client.POST("/api/messages", { body: { text } });
  if (created.response.status !== 201) {
    throw new Error(`create: ${created.response.status} ${JSON.stringify(created.error)}, want 201`);
  }

  // list: the message is in it
  const list = await client.GET("/api/messages");
  if (!list.data) {
    throw new Error(`list: ${list.response.status} ${JSON.stringify(list.error)}, want 200 with a list`);
  }
  const index = list.data.findIndex((m) => m.text === text);
  if (index < 0) {
    throw new Error(`list: ${JSON.stringify(text)} is not in ${JSON.stringify(list.data)}`);
  }

  // get: the message at its index
  const got = await client.GET("/api/messages/{index}", { params: { path: { index } } });
  if (got.data?.text !== text) {
    throw new Error(`get ${index}: ${got.response.status} ${JSON.stringify(got.data ?? got.error)}, want text ${JSON.stringify(text)}`);
  }

  // search: greeter checks its parameters and answers an empty 200
  const search = await client.GET("/api/messages/search", {
    params: { query: { param1: index, param2: "6e06b699-2490-4ad2-8000-000000000000" } },
    parseAs: "text",
  });
  if (search.response.status !== 200 || search.data) {
    throw new Error(`search: ${search.response.status} ${JSON.stringify(search.data ?? search.error)}, want 200 with no body`);
  }
}

run(process.argv[2]).then(
  () => console.log("ok"),
  (err: unknown) => {
    console.error("FAIL:", err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
