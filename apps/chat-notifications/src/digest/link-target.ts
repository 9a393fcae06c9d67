/**
 * Where a notification leads, as listed in digests and held-email summaries: `data.link` when
 * the sender gave one, else the resource its data names, else the inbox. Paths are the public
 * ones of the gateway (docs/api/contract.md, the seed endpoints); `origin` (PUBLIC_URL) makes them absolute.
 */
export function linkTarget(type: string, data: Record<string, unknown>, origin?: string): string {
  const path = pathOf(type, data);
  if (/^https?:\/\//.test(path) || !origin) return path;
  return `${origin.replace(/\/+$/, '')}${path}`;
}

const id = (value: unknown) => (typeof value === 'string' ? encodeURIComponent(value) : undefined);

function pathOf(type: string, data: Record<string, unknown>): string {
  if (typeof data.link === 'string' && data.link.length > 0) return data.link;
  if (id(data.task_id)) return `/assignment/api/v1/tasks/${id(data.task_id)}`;
  if (id(data.room_id)) return `/api/v1/chat/rooms/${id(data.room_id)}/messages`;
  if (type === 'acl.correspondent.invited') return '/acl/api/v1/auth/correspondents/invite';
  return '/api/v1/notifications';
}
