// Buy one mug and see the order confirmation
//
// Exported by Automium from journey:shop-lite.returning-buyer/shop-lite.buy-one-mug@37c6adeff6809afc905f
// (checked against the page models when exported; this file has not been run).
// Serve the app in the journey's fixture, then run this file against the base URL
// that `automium apps serve` prints (use.baseURL in playwright.config.ts):
//   automium apps serve --app shop-lite --fixture shop-lite.returning-buyer
//   npx playwright test shop-lite.buy-one-mug.spec.ts
// Recovery:
//   retry_step: each step is retried with expect(...).toPass() within 10 s (2 attempts at the 5 s action timeout).
//   refresh_snapshot: a locator reads the page afresh at every action.

import { test, expect } from '@playwright/test';

test.use({ actionTimeout: 5_000 });

test('Buy one mug and see the order confirmation', async ({ page }) => {
  await test.step('open-home', async () => {
    await expect(async () => {
      await page.goto('/');
    }).toPass({ timeout: 10_000 });
  });
  await test.step('search', async () => {
    await expect(async () => {
      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('mug');
    }).toPass({ timeout: 10_000 });
  });
  await test.step('submit', async () => {
    await expect(async () => {
      await page.keyboard.press('Enter');
    }).toPass({ timeout: 10_000 });
  });
  await test.step('add', async () => {
    await expect(async () => {
      await page.getByRole('button', { name: 'Add to cart', exact: true }).nth(0).click();
    }).toPass({ timeout: 10_000 });
  });
  await test.step('checkout', async () => {
    await expect(async () => {
      await page.goto('/checkout');
    }).toPass({ timeout: 10_000 });
  });
  await test.step('pay', async () => {
    await expect(async () => {
      await page.getByRole('button', { name: 'Place order', exact: true }).click();
    }).toPass({ timeout: 10_000 });
    await expect(page, 'confirmed').toHaveURL(/^[a-z]+:\/\/[^\/]+\/orders\/[^\/?#]+\/confirmation(?:[?#].*)?$/);
    await expect(page.getByRole('heading', { name: 'Thank you for your order', exact: true }), 'thanks').toContainText('Thank you');
  });
});
