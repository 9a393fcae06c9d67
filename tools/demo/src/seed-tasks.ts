import { ok } from './api';
import { TASKS, demoUuid } from './data';
import { iso, type People, type Seeding } from './seeding';

/** Tasks in every status; some overdue, some for the newsroom only. */
export async function seedTasks(s: Seeding, p: People): Promise<void> {
  const { now, report, log } = s;
  const { admin, groups, id } = p;
  log('tasks');
  for (const t of TASKS) {
    const entity_id = demoUuid(`task:${t.key}`);
    const found = await ok(
      admin.GET('/assignment/api/v1/tasks', { params: { query: { entity_id } } }),
      `find task ${t.key}`,
    );
    if (found.results.length > 0) {
      report.found('tasks');
      continue;
    }
    const task = await ok(
      admin.POST('/assignment/api/v1/tasks', {
        body: {
          workflow_node_code: t.code,
          node_preview_name: t.name,
          node_instructions: `${t.name}. Leave a note in the newsroom room when done.`,
          priority: t.priority,
          due_at: t.due_in_hours === null ? null : iso(new Date(now.getTime() + t.due_in_hours * 3_600_000)),
          required_permissions_snapshot: t.perms.map((code) => ({ code })),
          candidate_groups: t.groups.map((g) => groups.get(g)!),
          source_service: 'demo',
          entity_type: t.type,
          entity_id,
          entity_reference: t.ref,
          engine_request: null,
        },
      }),
      `create task ${t.key}`,
    );
    report.made('tasks');
    for (const step of t.then) {
      const params = { path: { task_id: task.id } };
      if (step === 'claim') {
        await ok(
          admin.POST('/assignment/api/v1/tasks/{task_id}/claim', { params, body: { user_id: id('editor') } }),
          `claim ${t.key}`,
        );
      } else {
        await ok(admin.POST(`/assignment/api/v1/tasks/{task_id}/${step}`, { params }), `${step} ${t.key}`);
      }
    }
  }
}
