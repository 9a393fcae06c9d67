import { Inject, Injectable } from '@nestjs/common';
import { AclEvents, AssignmentEvents, ChatEvents, type EventEnvelope } from '@media/contracts';
import { DeletedDocuments, type DocumentDeletedPayload } from '@media/platform';
import { OnEvent } from '@media/messaging';
import type { EntityManager } from 'typeorm';
import { RoomsService } from '../chat/rooms.service';
import { NotifierService } from '../notifications/notifier.service';
import {
  ChatMessageCreatedPayload,
  CorrespondentInvitedPayload,
  TaskClaimedPayload,
  TaskEscalatedPayload,
  TaskReassignedPayload,
} from './dto/app-events.dto';

/** Preview length of a chat message in a notification. */
const PREVIEW = 200;

/**
 * The other apps' events, one handler per subject (the platform keeps one durable consumer per
 * app and subject). Each event's data is validated first (a malformed one is dead-lettered, see
 * ./dto); each handler runs in a transaction with the event's id recorded, so a redelivery
 * adds nothing; the inbox entry's type is the event's subject.
 */
@Injectable()
export class AppEventsConsumer {
  constructor(
    @Inject(NotifierService) private readonly notifier: NotifierService,
    @Inject(RoomsService) private readonly rooms: RoomsService,
    @Inject(DeletedDocuments) deletedDocuments: DeletedDocuments,
  ) {
    deletedDocuments.onDeleted((event, manager) => this.documentDeleted(event, manager));
  }

  @OnEvent(AssignmentEvents.taskClaimed, TaskClaimedPayload)
  async taskClaimed(event: EventEnvelope<TaskClaimedPayload>, manager: EntityManager): Promise<void> {
    const { task_id, assigned_to, claimed_by, priority } = event.data;
    if (!assigned_to) return;
    await this.notifier.notify(manager, {
      recipient_ids: [assigned_to],
      notification_type: event.subject,
      title: claimed_by === assigned_to ? 'You claimed a task' : 'A task was assigned to you',
      body: null,
      data: { task_id, claimed_by },
      priority: priority ?? 'MEDIUM',
    });
  }

  /** The new assignee is told the task is theirs now, the previous one that it is not (docs/api/contract.md §7.2). */
  @OnEvent(AssignmentEvents.taskReassigned, TaskReassignedPayload)
  async taskReassigned(event: EventEnvelope<TaskReassignedPayload>, manager: EntityManager): Promise<void> {
    const { task_id, assigned_to, previous_assignee, reassigned_by } = event.data;
    const data = { task_id, assigned_to, previous_assignee, reassigned_by };
    await this.notifier.notify(manager, {
      recipient_ids: [assigned_to],
      notification_type: event.subject,
      title: 'A task was reassigned to you',
      body: null,
      data,
    });
    if (previous_assignee === assigned_to) return;
    await this.notifier.notify(manager, {
      recipient_ids: [previous_assignee],
      notification_type: event.subject,
      title: 'A task of yours was reassigned to someone else',
      body: null,
      data,
    });
  }

  @OnEvent(AssignmentEvents.taskEscalated, TaskEscalatedPayload)
  async taskEscalated(event: EventEnvelope<TaskEscalatedPayload>, manager: EntityManager): Promise<void> {
    const { task_id, assigned_to, escalation_level, from_level } = event.data;
    if (!assigned_to) return;
    await this.notifier.notify(manager, {
      recipient_ids: [assigned_to],
      notification_type: event.subject,
      title: `A task of yours escalated to level ${escalation_level}`,
      body: null,
      data: { task_id, escalation_level, from_level: from_level ?? null },
      // An escalation is urgent whatever the task's priority (docs/api/contract.md §7.3).
      priority: 'URGENT',
    });
  }

  @OnEvent(AclEvents.correspondentInvited, CorrespondentInvitedPayload)
  async correspondentInvited(
    event: EventEnvelope<CorrespondentInvitedPayload>,
    manager: EntityManager,
  ): Promise<void> {
    const { invited_by, user_id, email, name, expires_at } = event.data;
    if (!invited_by) return;
    await this.notifier.notify(manager, {
      recipient_ids: [invited_by],
      notification_type: event.subject,
      title: `Invitation sent to ${name || email}`,
      body: `The invitation expires at ${expires_at}.`,
      data: { user_id, email, expires_at },
    });
  }

  /**
   * `documents.document.deleted`, via DeletedDocuments (which owns the consumer, the lock and the
   * tombstone): rooms drop the document; its uploader (when the event names one) is told.
   */
  private async documentDeleted(
    event: EventEnvelope<DocumentDeletedPayload>,
    manager: EntityManager,
  ): Promise<void> {
    const { document_id, uploaded_by } = event.data;
    await this.rooms.forgetDocument(manager, document_id);
    if (!uploaded_by) return;
    await this.notifier.notify(manager, {
      recipient_ids: [uploaded_by],
      notification_type: event.subject,
      title: 'A document you uploaded was deleted',
      body: null,
      data: { document_id },
    });
  }

  @OnEvent(ChatEvents.messageCreated, ChatMessageCreatedPayload)
  async messageCreated(
    event: EventEnvelope<ChatMessageCreatedPayload>,
    manager: EntityManager,
  ): Promise<void> {
    const { room_id, room_name, message_id, sender, body, recipient_ids } = event.data;
    await this.notifier.notify(manager, {
      recipient_ids: recipient_ids.filter((id) => id !== sender),
      notification_type: event.subject,
      title: `New message in ${room_name}`,
      body: body.length > PREVIEW ? `${body.slice(0, PREVIEW)}…` : body,
      data: { room_id, message_id, sender },
    });
  }
}
