/**
 * Type-checked (`tsc --strict`) by openapi.e2e-spec.ts against `./client.ts`, the client
 * openapi-typescript generates from the gateway's merged `/openapi.json` (it is not checked in:
 * the test writes both files to a temporary directory). It fails to compile when an operation
 * has no typed JSON success body, unless it is one of the few listed exceptions.
 */
import type { paths } from './client';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Success = 200 | 201 | 202 | 206;
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON bodies of an operation's 2xx answers (never when it has none). */
type SuccessBody<O> = O extends { responses: infer R }
  ? {
      [S in keyof R & Success]: R[S] extends { content: { 'application/json': infer B } } ? B : never;
    }[keyof R & Success]
  : never;

/** True when the body tells a client nothing: unknown, never, or an object with no field (`{}`, `Record<string, never>`). */
type Untyped<B> = [B] extends [never]
  ? true
  : unknown extends B
    ? true
    : B extends readonly unknown[]
      ? Untyped<B[number]>
      : B extends object
        ? [keyof B] extends [never]
          ? true
          : string extends keyof B
            ? Untyped<B[string & keyof B]>
            : false
        : false;

/** `"<method> <path>"` of every operation whose success body is untyped. */
type UntypedOperations = {
  [P in keyof paths]: {
    [M in Method]: [paths[P][M]] extends [never | undefined]
      ? never
      : Untyped<SuccessBody<Operation<P, M>>> extends true
        ? `${M} ${P & string}`
        : never;
  }[Method];
}[keyof paths];

/**
 * Answers with no JSON body by design: 204 No Content, a binary download, tus (headers only) and
 * the audit exports (NDJSON).
 */
type Exceptions =
  | 'get /acl/api/v1/audit/export'
  | 'get /api/v1/audit/export'
  | 'get /assignment/api/v1/audit/export'
  | 'get /commercial/api/v1/audit/export'
  | 'get /content/api/v1/audit/export'
  | 'get /documents/api/v1/audit/export'
  | 'get /inventory/api/v1/audit/export'
  | 'get /payment/api/v1/audit/export'
  | 'delete /acl/api/v1/groups/{id}/members/{user_id}'
  | 'delete /api/v1/chat/rooms/{id}/messages/{message_id}'
  | 'delete /api/v1/webhooks/endpoints/{id}'
  | 'delete /assignment/api/v1/tasks/{task_id}'
  | 'delete /content/api/v1/lineup/slots/{slot_id}/assets/{document_id}'
  | 'delete /content/api/v1/story-categories/{id}'
  | 'delete /documents/api/v1/documents/{document_id}'
  | 'delete /documents/api/v1/uploads/{upload_id}'
  | 'get /documents/api/v1/documents/{document_id}/content'
  | 'patch /documents/api/v1/uploads/{upload_id}'
  | 'post /documents/api/v1/uploads'
  | 'post /acl/api/v1/auth/revoke';

type Unexpected = Exclude<UntypedOperations, Exceptions>;
type Stale = Exclude<Exceptions, UntypedOperations>;

/** `true` when nothing is listed, else an object type whose keys the compiler prints. */
type Listed<K extends string, Why extends string> = [K] extends [never] ? true : { [Key in K]: Why };

// A compile error here names the operations at fault.
export const everyOperationIsTyped: Listed<Unexpected, 'no typed JSON success body'> = true;
export const everyExceptionIsNeeded: Listed<Stale, 'listed as an exception but typed'> = true;

// What a client writes: bodies are typed down to their fields.
type Json<P extends keyof paths, M extends Method, S extends keyof Operation<P, M>['responses']> = Operation<
  P,
  M
>['responses'][S] extends { content: { 'application/json': infer B } }
  ? B
  : never;

export function greeting(me: Json<'/acl/api/v1/users/me', 'get', 200>): string {
  return `${me.name} <${me.email}> (${me.roles.join(', ')})`;
}

export function nextTaskPage(page: Json<'/assignment/api/v1/tasks', 'get', 200>): string | null {
  return page.results.length > 0 ? page.next : null;
}

export function roomName(answer: Json<'/api/v1/chat/rooms/{id}', 'get', 200>): string {
  return answer.data.name;
}

export function errorCode(
  error: Json<'/acl/api/v1/users/{id}', 'get', 404> | Json<'/acl/api/v1/users', 'post', 422>,
): string {
  return 'code' in error ? error.code : error.detail.map((issue) => issue.loc.join('.')).join(', ');
}
