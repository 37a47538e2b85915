package io.springport.flywaytool;

import java.io.InputStream;
import java.util.Properties;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Spring Boot with Flyway and nothing else: at start-up Spring Boot's
 * Flyway auto-configuration migrates the database that spring.datasource.*
 * names, with spring.flyway.*, as in any Spring Boot service. Then each
 * argument that is not an option is a Flyway command run on the Flyway
 * that Spring Boot configured: validate, migrate, info (one line per
 * migration, "flyway-info" and its fields separated by tabs). A command
 * that fails makes the exit status 1.
 */
@SpringBootApplication
public class FlywayTool implements CommandLineRunner {
    private final Flyway flyway;

    public FlywayTool(Flyway flyway) {
        this.flyway = flyway;
    }

    public static void main(String[] args) {
        System.exit(SpringApplication.exit(SpringApplication.run(FlywayTool.class, args)));
    }

    @Override
    public void run(String... args) throws Exception {
        System.out.println("flyway-version\t" + flywayVersion());
        for (String command : args) {
            if (command.startsWith("--")) {
                continue;
            }
            switch (command) {
                case "validate" -> flyway.validate();
                case "migrate" -> flyway.migrate();
                case "info" -> {
                    for (MigrationInfo m : flyway.info().all()) {
                        System.out.println(String.join("\t", "flyway-info",
                                String.valueOf(m.getInstalledRank()),
                                m.getVersion() == null ? "" : m.getVersion().getVersion(),
                                m.getDescription(),
                                m.getType().name(),
                                m.getState().getDisplayName(),
                                String.valueOf(m.getChecksum()),
                                m.getScript()));
                    }
                }
                default -> throw new IllegalArgumentException("unknown command " + command + ": validate, migrate or info");
            }
            System.out.println("flyway-done\t" + command);
        }
    }

    /** The version of flyway-core on the class path, from its Maven metadata. */
    private static String flywayVersion() throws Exception {
        try (InputStream in = Flyway.class.getResourceAsStream("/META-INF/maven/org.flywaydb/flyway-core/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        }
    }
}
