/**
 * Swagger UI at `/docs` as a newcomer uses it, in headless Chromium (Debian's `chromium`, driven
 * by playwright-core; `.ci/run` installs it when missing): the business tags come first and
 * `health` last; after "Authorize" with a bearer token, "Try it out" on a seed endpoint with a
 * path parameter (12: `GET /inventory/api/v1/bookings/{order_id}`) answers 200.
 */
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { adminToken, stack } from '@media/testing';
import { createApiClient } from '@media/client';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  // Swagger UI renders only the operations in view (a virtualized list): a page tall enough to
  // hold every tag, as a reader scrolling through would see them.
  page = await browser.newPage({ viewport: { width: 1280, height: 30_000 } });
  await page.goto(`${stack().gatewayUrl}/docs`);
  await page.locator('.opblock-tag').first().waitFor({ timeout: 60_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('Swagger UI at /docs', () => {
  it('lists the business tags first and health last', async () => {
    const tags = await page
      .locator('.opblock-tag')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-tag')));
    expect(tags.length).toBeGreaterThan(3);
    expect(tags[0]).toBe('auth');
    expect(tags.at(-1)).toBe('health');
    expect(tags.filter((tag) => tag === 'health')).toHaveLength(1);
  });

  it('authorizes with a bearer token and runs "Try it out" on GET /inventory/api/v1/bookings/{order_id}: 200', async () => {
    const token = await adminToken();
    const reference = `UI-${randomUUID().slice(0, 8)}`;
    const created = await createApiClient({ baseUrl: stack().gatewayUrl, token }).POST(
      '/inventory/api/v1/bookings',
      {
        body: { reference, client_name: 'Swagger UI Client', currency: 'USD', status: 'DRAFT' },
      },
    );
    expect(created.response.status).toBe(201);
    const orderId = created.data!.id;

    await page.locator('button.btn.authorize').first().click();
    const dialog = page.locator('.dialog-ux');
    await dialog.locator('input').first().fill(token);
    await dialog.locator('button.btn.modal-btn.auth.authorize').click();
    await dialog.locator('button.btn-done').click();

    const operation = page.locator('#operations-bookings-inventoryBookingsGet');
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('tr[data-param-name="order_id"] input').fill(orderId);
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    expect((await status.innerText()).trim()).toBe('200');
    const body = await operation
      .locator('.live-responses-table .response-col_description pre')
      .first()
      .innerText();
    expect(body).toContain(reference);
  }, 120_000);
});
