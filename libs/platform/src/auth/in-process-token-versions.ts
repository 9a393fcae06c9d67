import { randomUUID } from 'node:crypto';
import { AclEvents, AclSubjects, type TokenVersionsReply } from '@media/contracts';
import { inProcessBus, subscribeInProcess } from '@media/messaging';
import { revokedEventData, type TokenVersionSource } from '@media/core';

/** acl's events and answers on the in-process bus of the embedded default (NATS_URL=inproc). */
export function inProcessTokenVersionSource(app: string): TokenVersionSource {
  let stop: (() => void) | undefined;
  return {
    async listen(onRevoked) {
      stop = subscribeInProcess(
        AclEvents.userTokensRevoked,
        `token-versions:${app}:${randomUUID()}`,
        async (event) => {
          const data = revokedEventData(event);
          if (data) onRevoked(data);
        },
        {},
        1,
      );
    },
    async ask(since) {
      const subject = AclSubjects.usersTokenVersions;
      const responder = inProcessBus.responderFor(subject);
      if (!responder) throw new Error(`no responders for ${subject}`);
      return (await responder.request(subject, {
        data: since ? { since } : {},
        meta: {},
      })) as TokenVersionsReply;
    },
    async close() {
      stop?.();
    },
  };
}
