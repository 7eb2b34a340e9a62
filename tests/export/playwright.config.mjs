// The runner of the exported specs (tests/export/test_exported_tests_run.py writes the
// environment): one project per exported journey, each against the app served in that
// journey's fixture, on the provisioned Chromium; no browser is downloaded.
import { defineConfig } from '@playwright/test';

const projects = JSON.parse(process.env.AUTOMIUM_EXPORT_PROJECTS ?? '[]');

export default defineConfig({
  testDir: process.env.AUTOMIUM_EXPORT_DIR,
  outputDir: process.env.AUTOMIUM_EXPORT_OUTPUT,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: Number(process.env.AUTOMIUM_EXPECT_TIMEOUT ?? 5_000) },
  reporter: [['json', { outputFile: process.env.AUTOMIUM_EXPORT_REPORT }]],
  use: {
    headless: true,
    launchOptions: {
      executablePath: process.env.AUTOMIUM_CHROMIUM,
      // The flags every other launcher uses (tests/export/runners.py passes them).
      args: JSON.parse(process.env.AUTOMIUM_CHROMIUM_FLAGS ?? '[]'),
    },
  },
  projects: projects.map(({ name, file, baseURL }) => ({
    name,
    testMatch: file,
    use: { baseURL },
  })),
});
