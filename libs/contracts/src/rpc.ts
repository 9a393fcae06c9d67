import { AclSubjects, type AclRpc } from './acl';
import { DocumentsSubjects, type DocumentsRpc } from './documents';
import { AssignmentSubjects, type AssignmentRpc } from './assignment';
import { NotificationsSubjects, type NotificationsRpc } from './notifications';

/** Metadata that rides along every NATS request and event, so logs correlate across hops. */
export interface MessageMeta {
  request_id?: string;
  user_id?: string;
  /** The token version of the caller's access token, so a responder refuses a revoked one. */
  user_ver?: number;
  /** W3C trace context of the span that sent it, so one trace spans every hop. */
  traceparent?: string;
}

/** The wire shape of every request sent over NATS. */
export interface RpcEnvelope<T> {
  data: T;
  meta: MessageMeta;
}

/** Every request/reply subject of the system, with its request and reply types. */
export type RpcMap = AclRpc & DocumentsRpc & AssignmentRpc & NotificationsRpc;
export type RpcSubject = keyof RpcMap;
export type RpcRequest<S extends RpcSubject> = RpcMap[S]['req'];
export type RpcReply<S extends RpcSubject> = RpcMap[S]['res'];

/** Every request/reply subject, as a list (a test holds it equal to `RpcMap`'s keys). */
export const RPC_SUBJECTS = [
  ...Object.values(AclSubjects),
  ...Object.values(DocumentsSubjects),
  ...Object.values(AssignmentSubjects),
  ...Object.values(NotificationsSubjects),
] as RpcSubject[];
