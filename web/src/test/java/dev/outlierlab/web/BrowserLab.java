package dev.outlierlab.web;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A lab server on a free loopback port and a real headless Chromium driving it, for the browser tests:
 * Debian's chromium and chromium-driver with both paths set, so Selenium Manager never downloads anything,
 * downloads going to a temporary directory. Without {@code /usr/bin/chromedriver} {@link #start()} skips the
 * test class with a message saying what to install.
 */
final class BrowserLab implements AutoCloseable {
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path SHOTS = Path.of("target", "screenshots");

    final LabServer server;
    final ChromeDriver driver;
    final Path downloads;
    private final Path profile;

    private BrowserLab(LabServer server, ChromeDriver driver, Path downloads, Path profile) {
        this.server = server;
        this.driver = driver;
        this.downloads = downloads;
        this.profile = profile;
    }

    /** Starts the server and the browser, or skips the calling test class when the browser is missing. */
    static BrowserLab start() throws IOException {
        assumeTrue(
                Files.isExecutable(CHROMEDRIVER),
                "browser tests skipped: " + CHROMEDRIVER + " is absent; install Debian's "
                        + "chromium and chromium-driver (apt-get install -y chromium chromium-driver) to run them");
        LabServer server = LabServer.start(0);
        Path downloads = Files.createTempDirectory("outlier-lab-downloads");
        Path profile = Files.createTempDirectory("outlier-lab-chromium");
        Files.createDirectories(SHOTS);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--window-size=1280,800",
                "--force-device-scale-factor=1");
        options.setExperimentalOption(
                "prefs",
                Map.of("download.default_directory", downloads.toString(), "download.prompt_for_download", false));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return new BrowserLab(server, driver, downloads, profile);
    }

    /** Closes {@code lab} if it started (a skipped class has none). */
    static void stop(BrowserLab lab) {
        if (lab != null) {
            lab.close();
        }
    }

    @Override
    public void close() {
        driver.quit();
        server.close();
        for (Path dir : new Path[] {downloads, profile}) {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Sizes the window so that the page's viewport (not the window) has this size. */
    void viewport(Dimension size) {
        driver.manage().window().setSize(size);
        @SuppressWarnings("unchecked")
        List<Number> inner = (List<Number>) js("return [window.innerWidth, window.innerHeight];");
        driver.manage()
                .window()
                .setSize(new Dimension(
                        2 * size.getWidth() - inner.get(0).intValue(),
                        2 * size.getHeight() - inner.get(1).intValue()));
    }

    /** Empties the download directory. */
    void clearDownloads() throws IOException {
        try (Stream<Path> old = Files.list(downloads)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
    }

    /** Waits until {@code name} has been downloaded completely and returns its path. */
    Path awaitDownload(String name) {
        Path file = downloads.resolve(name);
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> Files.exists(file) && isComplete(file));
        return file;
    }

    private boolean isComplete(Path file) {
        try (Stream<Path> files = Files.list(downloads)) {
            return files.noneMatch(p -> p.toString().endsWith(".crdownload")) && Files.size(file) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    void screenshot(String name) throws IOException {
        byte[] png = driver.getScreenshotAs(OutputType.BYTES);
        Files.write(SHOTS.resolve(name + ".png"), png);
    }

    /** The whole page: the window grows to the document's height for one shot, then returns. */
    void fullPageScreenshot(String name) throws IOException {
        Dimension before = driver.manage().window().getSize();
        long height = ((Number) js("return document.documentElement.scrollHeight;")).longValue();
        long chrome = before.getHeight() - ((Number) js("return window.innerHeight;")).longValue();
        driver.manage().window().setSize(new Dimension(before.getWidth(), (int) Math.min(height + chrome, 6000)));
        js("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));");
        screenshot(name);
        driver.manage().window().setSize(before);
    }
}
