/**
 * Helpers for commercial's e2e tests: the stack booted by the global setup, reached through the
 * gateway as a client would, and factories that go through commercial's own API.
 */
import { randomUUID } from 'node:crypto';
import { appClient, appDatabase, e2eStack, mintToken, type ApiResponse } from '@media/testing';

/** The stack booted by the global setup. */
export const system = e2eStack;

/** A request to a commercial path (`/api/v1/...`), through the gateway. */
export const commercial = appClient('commercial');

/** One query on commercial's own database. */
export const commercialDb = appDatabase('commercial');

/** A token minted with the stack's signing key. */
export function tokenWith(permissions: string[]): string {
  return mintToken(system().keys, { permissions, sub: randomUUID() });
}

let sales: string | undefined;
/** A SALES-like caller (`analytics:sales`). */
export function salesToken(): string {
  sales ??= tokenWith(['analytics:sales']);
  return sales;
}

export function unique(tag: string): string {
  return `${tag}-${randomUUID().slice(0, 8)}`;
}

export async function createClient(
  name = unique('client'),
  category = 'RETAIL',
): Promise<Record<string, any>> {
  const res = await commercial('/api/v1/clients', { token: salesToken(), json: { name, category } });
  if (res.status !== 201) throw new Error(`client create failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function createDeal(
  clientId: string,
  contracted_revenue: string,
  contract_date: string,
  status = 'WON',
): Promise<Record<string, any>> {
  const res = await commercial('/api/v1/deals', {
    token: salesToken(),
    json: { client_id: clientId, contracted_revenue, contract_date, status },
  });
  if (res.status !== 201) throw new Error(`deal create failed: ${res.status} ${res.text}`);
  return res.body;
}

export { follow } from '@media/testing';

export function topClients(query: string, token = salesToken()): Promise<ApiResponse<any>> {
  return commercial(`/api/v1/analytics/sales/top-clients${query}`, { token });
}

/** UTC `YYYY-MM-DD` of a day offset from today. */
export function utcDay(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}
