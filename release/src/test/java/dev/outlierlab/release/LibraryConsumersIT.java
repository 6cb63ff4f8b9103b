package dev.outlierlab.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library artifacts as a user gets them: {@code mvn deploy} of outlier-lab-live, the Spring Boot starter and
 * what they need (the parent pom, engine, ...) to a file repository under target/, never to the local repository
 * (install is skipped); then two separate projects (src/test/consumers: plain Java, Spring Boot) build against that
 * repository with an empty local repository of their own. Third-party artifacts come from this machine's Maven
 * repository, read as a remote one, so nothing is downloaded; outlier-lab's artifacts can come only from the file
 * repository (the machine's repository serves releases only), and the test checks that they did. Each project
 * starts against real backends on 127.0.0.1 and ejects the failing one.
 */
class LibraryConsumersIT {
    private static final Path WORK = ReleaseFiles.MODULE.resolve("target/consumer-it");

    private static Shell.Result maven(Path dir, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("release.mavenHome"), "bin", "mvn").toString(), "-B", "-ntp"));
        command.addAll(args);
        return Shell.run(
                command,
                dir,
                Map.of("JAVA_HOME", System.getProperty("java.home"), "MAVEN_OPTS", "-Xmx512m"),
                false,
                900);
    }

    private static Path settings(String name, String mirrorOf, Path machineRepository, String fileRepository)
            throws IOException {
        String repository = fileRepository == null ? "" : """
                  <profiles><profile><id>outlier-lab</id><repositories>
                    <repository><id>outlier-lab</id><url>%s</url><snapshots><enabled>true</enabled></snapshots></repository>
                  </repositories></profile></profiles>
                  <activeProfiles><activeProfile>outlier-lab</activeProfile></activeProfiles>
                """.formatted(fileRepository);
        return Files.writeString(WORK.resolve(name), """
                <settings>
                  <mirrors><mirror><id>central</id><mirrorOf>%s</mirrorOf><url>%s</url></mirror></mirrors>
                %s</settings>
                """.formatted(mirrorOf, machineRepository.toUri(), repository));
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    @Test
    void theLibraryArtifactsDeployAndTwoProjectsUseThemFromTheFileRepositoryOnly()
            throws IOException, InterruptedException {
        String mavenHome = System.getProperty("release.mavenHome", "");
        assumeTrue(Files.isExecutable(Path.of(mavenHome, "bin", "mvn")), "no Maven to deploy with: run under Maven");
        Path machineRepository = Path.of(
                System.getProperty("release.localRepository", System.getProperty("user.home") + "/.m2/repository"));
        Shell.delete(WORK);
        Path fileRepository = Files.createDirectories(WORK.resolve("repository"));

        // The deploy: with a local repository of its own (deploy caches the file repository's metadata in it), the
        // third-party artifacts from this machine's repository, so nothing is downloaded.
        Path deploySettings = settings("deploy-settings.xml", "*", machineRepository, null);
        Shell.Result deploy = maven(
                ReleaseFiles.REPO,
                List.of(
                        "-s",
                        deploySettings.toString(),
                        "-Dmaven.repo.local=" + WORK.resolve("deploy-local-repository"),
                        "deploy",
                        "-pl",
                        "live,live-spring,live-micrometer,live-spring-boot-starter",
                        "-am",
                        "-Dmaven.test.skip=true",
                        "-Dmaven.install.skip=true",
                        "-DaltDeploymentRepository=outlier-lab-it::" + fileRepository.toUri()));
        assertThat(deploy.exit()).as("mvn deploy: %s", deploy.out()).isZero();
        for (String artifact :
                List.of("parent", "engine", "live", "live-spring", "live-micrometer", "live-spring-boot-starter")) {
            Path folder = fileRepository.resolve("dev/outlierlab/outlier-lab-" + artifact + "/" + ReleaseFiles.VERSION);
            assertThat(folder.resolve("maven-metadata.xml")).as(artifact).isRegularFile();
        }

        // The consumers: an empty local repository, outlier-lab only from the file repository.
        Path projects = WORK.resolve("projects");
        copy(ReleaseFiles.MODULE.resolve("src/test/consumers"), projects);
        Path localRepository = WORK.resolve("consumer-local-repository");
        Path consumerSettings = settings(
                "consumer-settings.xml",
                "external:*",
                machineRepository,
                fileRepository.toUri().toString());
        Shell.Result consumers = maven(
                projects,
                List.of(
                        "-s",
                        consumerSettings.toString(),
                        "-Dmaven.repo.local=" + localRepository,
                        "-Doutlier-lab.version=" + ReleaseFiles.VERSION,
                        "test"));
        assertThat(consumers.exit())
                .as("the consumer projects: %s", consumers.out())
                .isZero();
        assertThat(consumers.out())
                .contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed")
                .contains("in com.example.plain.LivePoolConsumerTest", "in com.example.demo.DemoApplicationTest");
        for (String artifact :
                List.of("parent", "engine", "live", "live-spring", "live-micrometer", "live-spring-boot-starter")) {
            Path resolved = localRepository.resolve(
                    "dev/outlierlab/outlier-lab-" + artifact + "/" + ReleaseFiles.VERSION + "/_remote.repositories");
            assertThat(resolved)
                    .as("%s resolved from the file repository", artifact)
                    .content()
                    .contains(">outlier-lab=")
                    .doesNotContain(">central=");
        }
    }
}
