package io.springport.springenv;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Spring's side of the settings fuzzing (conformance/settingsfuzz): loads
 * case after case in one JVM, each with a fresh non-web SpringApplication,
 * and prints what its Environment resolves as one JSON line per case.
 *
 * <p>A case comes on standard input as lines, fields separated by tabs:
 * <pre>
 * case
 * dir    /abs/path/of/the/case     (its working directory, see CaseResourceLoader)
 * env    NAME    VALUE             (each environment variable; no other is seen)
 * arg    --key=value               (each command-line argument)
 * key    k.a                       (each setting to print)
 * end
 * </pre>
 * and the answer is {"refused":false,"error":"","active":[...],"default":[...],
 * "values":{"k.a":"v1","k.b":null}}: the active profiles
 * (getActiveProfiles(), empty when the defaults stand in), the default
 * ones, and each key as the Binder resolves it (placeholders that nothing
 * resolves kept as written, as binding does), null when unset, "!error"
 * when resolving throws. A start-up that throws is "refused", with the
 * exception's class and its root cause's.
 */
public final class Main {

	private Main() {
	}

	/** The application's only source: nothing, since only the environment matters. */
	static class Empty {
	}

	public static void main(String[] argv) throws Exception {
		// No logging system, no log lines: the answers are all that is printed.
		System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
		System.setProperty("spring.backgroundpreinitializer.ignore", "true");
		LogManager.getLogManager().reset();
		Logger.getLogger("").setLevel(Level.OFF);
		PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
		System.setOut(System.err); // whatever else prints does not mix with the answers
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		CaseRequest req = null;
		String line;
		while ((line = in.readLine()) != null) {
			String[] f = line.split("\t", 3);
			switch (f[0]) {
				case "case" -> req = new CaseRequest();
				case "dir" -> req.dir = f[1];
				case "env" -> req.env.put(f[1], f.length > 2 ? f[2] : "");
				case "arg" -> req.args.add(f.length > 1 ? f[1] : "");
				case "key" -> req.keys.add(f[1]);
				case "end" -> {
					out.println(load(req));
					out.flush();
				}
				default -> throw new IllegalArgumentException("unknown line: " + line);
			}
		}
	}

	static final class CaseRequest {
		String dir;
		final Map<String, String> env = new LinkedHashMap<>();
		final List<String> args = new ArrayList<>();
		final List<String> keys = new ArrayList<>();
	}

	static String load(CaseRequest req) {
		SpringApplication app = new SpringApplication(new CaseResourceLoader(req.dir, Main.class.getClassLoader()), Empty.class);
		app.setWebApplicationType(WebApplicationType.NONE);
		app.setBannerMode(Banner.Mode.OFF);
		app.setLogStartupInfo(false);
		app.setRegisterShutdownHook(false);
		app.setEnvironment(new CaseEnvironment(req.env));
		StringBuilder b = new StringBuilder();
		try (ConfigurableApplicationContext ctx = app.run(req.args.toArray(String[]::new))) {
			ConfigurableEnvironment env = ctx.getEnvironment();
			b.append("{\"refused\":false,\"active\":");
			array(b, env.getActiveProfiles());
			b.append(",\"default\":");
			array(b, env.getDefaultProfiles());
			b.append(",\"values\":{");
			Binder binder = Binder.get(env);
			for (int i = 0; i < req.keys.size(); i++) {
				String key = req.keys.get(i);
				if (i > 0) {
					b.append(',');
				}
				string(b, key);
				b.append(':');
				String v;
				try {
					v = binder.bind(key, Bindable.of(String.class)).orElse(null);
				}
				catch (RuntimeException ex) {
					v = "!error";
				}
				if (v == null) {
					b.append("null");
				}
				else {
					string(b, v);
				}
			}
			b.append("}}");
			return b.toString();
		}
		catch (Throwable ex) {
			Throwable root = ex;
			while (root.getCause() != null && root.getCause() != root) {
				root = root.getCause();
			}
			b.setLength(0);
			b.append("{\"refused\":true,\"error\":");
			String msg = String.valueOf(root.getMessage()).lines().findFirst().orElse("");
			string(b, ex.getClass().getName() + (root != ex ? " caused by " + root.getClass().getName() : "") + ": " + msg);
			b.append('}');
			return b.toString();
		}
	}

	static void array(StringBuilder b, String[] values) {
		b.append('[');
		for (int i = 0; i < values.length; i++) {
			if (i > 0) {
				b.append(',');
			}
			string(b, values[i]);
		}
		b.append(']');
	}

	static void string(StringBuilder b, String s) {
		b.append('"');
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			switch (c) {
				case '"' -> b.append("\\\"");
				case '\\' -> b.append("\\\\");
				case '\n' -> b.append("\\n");
				case '\r' -> b.append("\\r");
				case '\t' -> b.append("\\t");
				default -> {
					if (c < 0x20) {
						b.append(String.format("\\u%04x", (int) c));
					}
					else {
						b.append(c);
					}
				}
			}
		}
		b.append('"');
	}

}
