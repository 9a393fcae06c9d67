import type { RequiredPermission, TaskAssignee, TaskPriority, TaskStatus } from '@media/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A workflow task someone must claim and carry out (seed resource Task, docs/api/contract.md §4.4). */
@Entity({ name: 'tasks' })
export class Task {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text', default: 'OPEN' })
  status!: TaskStatus;

  @Column({ type: 'text', default: 'MEDIUM' })
  priority!: TaskPriority;

  @Column({ name: 'engine_request', type: 'text', nullable: true })
  engineRequest!: string | null;

  @Column({ name: 'workflow_node_code', type: 'text' })
  workflowNodeCode!: string;

  @Column({ name: 'node_preview_name', type: 'text' })
  nodePreviewName!: string;

  @Column({ name: 'node_instructions', type: 'text', nullable: true })
  nodeInstructions!: string | null;

  /** As given at creation (`[{"code": ...}]`). */
  @Column({ name: 'required_permissions_snapshot', type: 'jsonb', default: () => `'[]'` })
  requiredPermissionsSnapshot!: RequiredPermission[];

  /** The distinct codes of the snapshot, for the work-queue query (`<@` the caller's permissions). */
  @Column({ name: 'required_permissions', type: 'text', array: true, default: () => `'{}'` })
  requiredPermissions!: string[];

  @Column({ name: 'candidate_groups', type: 'uuid', array: true, default: () => `'{}'` })
  candidateGroups!: string[];

  @Column({ name: 'assigned_to', type: 'uuid', nullable: true })
  assignedTo!: string | null;

  @Column({ name: 'assigned_at', type: 'timestamptz', precision: 3, nullable: true })
  assignedAt!: Date | null;

  /** `{id, name, email}` of the assignee as acl answered at the claim. */
  @Column({ name: 'assigned_to_user', type: 'jsonb', nullable: true })
  assignedToUser!: TaskAssignee | null;

  @Column({ name: 'completed_at', type: 'timestamptz', precision: 3, nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'due_at', type: 'timestamptz', precision: 3, nullable: true })
  dueAt!: Date | null;

  @Column({ name: 'source_service', type: 'text', nullable: true })
  sourceService!: string | null;

  @Column({ name: 'entity_type', type: 'text', nullable: true })
  entityType!: string | null;

  @Column({ name: 'entity_id', type: 'uuid', nullable: true })
  entityId!: string | null;

  @Column({ name: 'entity_reference', type: 'text', nullable: true })
  entityReference!: string | null;

  @Column({ name: 'escalation_level', type: 'int', default: 0 })
  escalationLevel!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt!: Date | null;
}
