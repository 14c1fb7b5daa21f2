-- CreateEnum
CREATE TYPE "FieldType" AS ENUM ('text', 'number', 'date', 'boolean', 'select', 'user');

-- CreateEnum
CREATE TYPE "ValueListSource" AS ENUM ('manual', 'excel');

-- CreateEnum
CREATE TYPE "FileIndexStatus" AS ENUM ('unindexed', 'indexed');

-- CreateEnum
CREATE TYPE "ExtractStatus" AS ENUM ('pending', 'done', 'failed', 'unsupported');

-- CreateEnum
CREATE TYPE "WorkflowStatus" AS ENUM ('draft', 'active');

-- CreateEnum
CREATE TYPE "StepCompletion" AS ENUM ('any', 'all', 'quorum');

-- CreateEnum
CREATE TYPE "StepRoute" AS ENUM ('next', 'step', 'previous', 'end');

-- CreateEnum
CREATE TYPE "StepEvent" AS ENUM ('entered', 'completed', 'rejected', 'overdue');

-- CreateEnum
CREATE TYPE "RecipientKind" AS ENUM ('assignees', 'initiator', 'owner', 'followers', 'user', 'group');

-- CreateEnum
CREATE TYPE "ConditionMode" AS ENUM ('PRE', 'POST');

-- CreateEnum
CREATE TYPE "ConditionOperator" AS ENUM ('eq', 'ne', 'gt', 'lt', 'contains', 'empty', 'not_empty', 'in_list');

-- CreateEnum
CREATE TYPE "ConditionJoin" AS ENUM ('and', 'or');

-- CreateEnum
CREATE TYPE "TriggerKind" AS ENUM ('on_index', 'on_field_change', 'on_date', 'overdue');

-- CreateEnum
CREATE TYPE "InstanceStatus" AS ENUM ('running', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "TransitionKind" AS ENUM ('started', 'approved', 'rejected', 'moved', 'triggered', 'escalated', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "TaskStatus" AS ENUM ('open', 'approved', 'rejected', 'cancelled');

-- CreateEnum
CREATE TYPE "BackupKind" AS ENUM ('manual', 'scheduled', 'uploaded');

-- CreateEnum
CREATE TYPE "BackupStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'restoring', 'restored');

-- CreateEnum
CREATE TYPE "AuthProviderKind" AS ENUM ('ldap');

-- AlterTable
ALTER TABLE "companies" ADD COLUMN     "address" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "email" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "phone" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "search_language" TEXT NOT NULL DEFAULT 'simple',
ADD COLUMN     "website" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "auth_provider_id" INTEGER,
ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "last_login_at" TIMESTAMP(3),
ALTER COLUMN "password_hash" DROP NOT NULL;

-- CreateTable
CREATE TABLE "categories" (
    "id" SERIAL NOT NULL,
    "parent_id" INTEGER,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL DEFAULT 0,
    "inherit_fields" BOOLEAN NOT NULL DEFAULT true,
    "inherit_permissions" BOOLEAN NOT NULL DEFAULT true,
    "workflow_id" INTEGER,
    "next_incremental" INTEGER NOT NULL DEFAULT 1,
    "incremental_prefix" TEXT NOT NULL DEFAULT '',
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),
    "deleted_by_id" INTEGER,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "category_fields" (
    "category_id" INTEGER NOT NULL,
    "field_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "required" BOOLEAN,
    "default_value" TEXT,
    "show_in_list" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "category_fields_pkey" PRIMARY KEY ("category_id","field_id")
);

-- CreateTable
CREATE TABLE "category_permissions" (
    "id" SERIAL NOT NULL,
    "category_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "group_id" INTEGER,
    "can_view" BOOLEAN NOT NULL DEFAULT true,
    "can_upload" BOOLEAN NOT NULL DEFAULT false,
    "can_edit" BOOLEAN NOT NULL DEFAULT false,
    "can_delete" BOOLEAN NOT NULL DEFAULT false,
    "can_share" BOOLEAN NOT NULL DEFAULT false,
    "can_manage" BOOLEAN NOT NULL DEFAULT false,
    "granted_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "category_permissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "category_groups" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "category_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "category_group_members" (
    "category_group_id" INTEGER NOT NULL,
    "category_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "category_group_members_pkey" PRIMARY KEY ("category_group_id","category_id")
);

-- CreateTable
CREATE TABLE "category_group_permissions" (
    "id" SERIAL NOT NULL,
    "category_group_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "group_id" INTEGER,
    "can_view" BOOLEAN NOT NULL DEFAULT true,
    "can_upload" BOOLEAN NOT NULL DEFAULT false,
    "can_edit" BOOLEAN NOT NULL DEFAULT false,
    "can_delete" BOOLEAN NOT NULL DEFAULT false,
    "can_share" BOOLEAN NOT NULL DEFAULT false,
    "can_manage" BOOLEAN NOT NULL DEFAULT false,
    "granted_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "category_group_permissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "related_tags" (
    "id" SERIAL NOT NULL,
    "category_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT,
    "linked_category_id" INTEGER,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "related_tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "metadata_fields" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "type" "FieldType" NOT NULL,
    "value_list_id" INTEGER,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "help_text" TEXT NOT NULL DEFAULT '',
    "min_number" DECIMAL(30,10),
    "max_number" DECIMAL(30,10),
    "min_date" DATE,
    "max_date" DATE,
    "max_length" INTEGER,
    "pattern" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "metadata_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "value_lists" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "source" "ValueListSource" NOT NULL DEFAULT 'manual',
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "value_lists_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "value_list_items" (
    "id" SERIAL NOT NULL,
    "value_list_id" INTEGER NOT NULL,
    "key" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "archived_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "value_list_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "files" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "category_id" INTEGER,
    "index_status" "FileIndexStatus" NOT NULL DEFAULT 'unindexed',
    "current_version_id" INTEGER,
    "incremental_value" INTEGER,
    "owner_id" INTEGER NOT NULL,
    "locked_by_id" INTEGER,
    "locked_at" TIMESTAMP(3),
    "checked_out_by_id" INTEGER,
    "checked_out_at" TIMESTAMP(3),
    "has_own_permissions" BOOLEAN NOT NULL DEFAULT false,
    "search_vector" tsvector,
    "indexed_at" TIMESTAMP(3),
    "indexed_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),
    "deleted_by_id" INTEGER,

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "file_versions" (
    "id" SERIAL NOT NULL,
    "file_id" INTEGER NOT NULL,
    "number" INTEGER NOT NULL,
    "blob_id" TEXT NOT NULL,
    "original_name" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "author_id" INTEGER NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "rolled_back_from_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "version_texts" (
    "version_id" INTEGER NOT NULL,
    "status" "ExtractStatus" NOT NULL DEFAULT 'pending',
    "text" TEXT,
    "error" TEXT,
    "extracted_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "version_texts_pkey" PRIMARY KEY ("version_id")
);

-- CreateTable
CREATE TABLE "file_field_values" (
    "file_id" INTEGER NOT NULL,
    "field_id" INTEGER NOT NULL,
    "value_text" TEXT,
    "value_number" DECIMAL(30,10),
    "value_date" DATE,
    "value_boolean" BOOLEAN,
    "value_item_id" INTEGER,
    "value_user_id" INTEGER,
    "updated_by_id" INTEGER,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "file_field_values_pkey" PRIMARY KEY ("file_id","field_id")
);

-- CreateTable
CREATE TABLE "file_tags" (
    "file_id" INTEGER NOT NULL,
    "tag_id" INTEGER NOT NULL,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_tags_pkey" PRIMARY KEY ("file_id","tag_id")
);

-- CreateTable
CREATE TABLE "file_permissions" (
    "id" SERIAL NOT NULL,
    "file_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "group_id" INTEGER,
    "can_view" BOOLEAN NOT NULL DEFAULT true,
    "can_download" BOOLEAN NOT NULL DEFAULT false,
    "can_edit" BOOLEAN NOT NULL DEFAULT false,
    "can_delete" BOOLEAN NOT NULL DEFAULT false,
    "can_share" BOOLEAN NOT NULL DEFAULT false,
    "granted_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "file_permissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shares" (
    "id" UUID NOT NULL,
    "file_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "version_id" INTEGER,
    "password_hash" TEXT,
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_by_id" INTEGER NOT NULL,
    "download_count" INTEGER NOT NULL DEFAULT 0,
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shares_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comments" (
    "id" SERIAL NOT NULL,
    "file_id" INTEGER NOT NULL,
    "author_id" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "edited_at" TIMESTAMP(3),
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attachments" (
    "id" SERIAL NOT NULL,
    "file_id" INTEGER NOT NULL,
    "blob_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "uploaded_by_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "file_follows" (
    "file_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_follows_pkey" PRIMARY KEY ("file_id","user_id")
);

-- CreateTable
CREATE TABLE "file_favourites" (
    "file_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_favourites_pkey" PRIMARY KEY ("file_id","user_id")
);

-- CreateTable
CREATE TABLE "file_views" (
    "user_id" INTEGER NOT NULL,
    "file_id" INTEGER NOT NULL,
    "last_viewed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_previewed_at" TIMESTAMP(3),
    "view_count" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "file_views_pkey" PRIMARY KEY ("user_id","file_id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "file_id" INTEGER,
    "link" TEXT,
    "read_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflows" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" "WorkflowStatus" NOT NULL DEFAULT 'draft',
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_fields" (
    "workflow_id" INTEGER NOT NULL,
    "field_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "default_value" TEXT,

    CONSTRAINT "workflow_fields_pkey" PRIMARY KEY ("workflow_id","field_id")
);

-- CreateTable
CREATE TABLE "workflow_steps" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL,
    "due_hours" INTEGER,
    "completion" "StepCompletion" NOT NULL DEFAULT 'any',
    "quorum" INTEGER,
    "on_approve" "StepRoute" NOT NULL DEFAULT 'next',
    "on_approve_step_id" INTEGER,
    "on_reject" "StepRoute" NOT NULL DEFAULT 'previous',
    "on_reject_step_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "workflow_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "step_assignees" (
    "id" SERIAL NOT NULL,
    "step_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "group_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "step_assignees_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "step_notifications" (
    "id" SERIAL NOT NULL,
    "step_id" INTEGER NOT NULL,
    "event" "StepEvent" NOT NULL,
    "recipient" "RecipientKind" NOT NULL,
    "user_id" INTEGER,
    "group_id" INTEGER,
    "in_app" BOOLEAN NOT NULL DEFAULT true,
    "email" BOOLEAN NOT NULL DEFAULT true,
    "subject" TEXT NOT NULL DEFAULT '',
    "body" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "step_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "step_conditions" (
    "id" SERIAL NOT NULL,
    "step_id" INTEGER NOT NULL,
    "mode" "ConditionMode" NOT NULL,
    "field_id" INTEGER NOT NULL,
    "on_workflow_field" BOOLEAN NOT NULL DEFAULT false,
    "operator" "ConditionOperator" NOT NULL,
    "value" TEXT,
    "join" "ConditionJoin" NOT NULL DEFAULT 'and',
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "step_conditions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "step_triggers" (
    "id" SERIAL NOT NULL,
    "step_id" INTEGER NOT NULL,
    "kind" "TriggerKind" NOT NULL,
    "field_id" INTEGER,
    "value" TEXT,
    "cron" TEXT,
    "target_step_id" INTEGER,
    "escalate_user_id" INTEGER,
    "escalate_group_id" INTEGER,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "step_triggers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "step_fields" (
    "step_id" INTEGER NOT NULL,
    "field_id" INTEGER NOT NULL,
    "editable" BOOLEAN NOT NULL DEFAULT true,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "default_value" TEXT,
    "position" INTEGER NOT NULL,

    CONSTRAINT "step_fields_pkey" PRIMARY KEY ("step_id","field_id")
);

-- CreateTable
CREATE TABLE "workflow_instances" (
    "id" SERIAL NOT NULL,
    "file_id" INTEGER NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "current_step_id" INTEGER,
    "status" "InstanceStatus" NOT NULL DEFAULT 'running',
    "revision" INTEGER NOT NULL DEFAULT 0,
    "started_by_id" INTEGER,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "step_entered_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "due_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "workflow_instances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_instance_values" (
    "instance_id" INTEGER NOT NULL,
    "field_id" INTEGER NOT NULL,
    "value_text" TEXT,
    "value_number" DECIMAL(30,10),
    "value_date" DATE,
    "value_boolean" BOOLEAN,
    "value_item_id" INTEGER,
    "value_user_id" INTEGER,
    "updated_by_id" INTEGER,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "workflow_instance_values_pkey" PRIMARY KEY ("instance_id","field_id")
);

-- CreateTable
CREATE TABLE "workflow_transitions" (
    "id" BIGSERIAL NOT NULL,
    "instance_id" INTEGER NOT NULL,
    "kind" "TransitionKind" NOT NULL,
    "from_step_id" INTEGER,
    "to_step_id" INTEGER,
    "acted_by_id" INTEGER,
    "comment" TEXT NOT NULL DEFAULT '',
    "values" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_transitions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_tasks" (
    "id" SERIAL NOT NULL,
    "instance_id" INTEGER NOT NULL,
    "step_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" "TaskStatus" NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "due_at" TIMESTAMP(3),
    "done_at" TIMESTAMP(3),

    CONSTRAINT "workflow_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "backups" (
    "id" SERIAL NOT NULL,
    "kind" "BackupKind" NOT NULL,
    "status" "BackupStatus" NOT NULL DEFAULT 'queued',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "requested_by_id" INTEGER,
    "blob_id" TEXT,
    "file_name" TEXT,
    "size" BIGINT,
    "migration" TEXT,
    "manifest" JSONB,
    "verified_at" TIMESTAMP(3),
    "error" TEXT,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "restored_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "file_deleted_at" TIMESTAMP(3),

    CONSTRAINT "backups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "backup_schedules" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "cron" TEXT NOT NULL DEFAULT '0 2 * * *',
    "keep_last" INTEGER NOT NULL DEFAULT 7,
    "updated_by_id" INTEGER,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "backup_schedules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_providers" (
    "id" SERIAL NOT NULL,
    "kind" "AuthProviderKind" NOT NULL DEFAULT 'ldap',
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "url" TEXT NOT NULL,
    "start_tls" BOOLEAN NOT NULL DEFAULT false,
    "verify_certificate" BOOLEAN NOT NULL DEFAULT true,
    "ca_certificate" TEXT,
    "bind_dn" TEXT,
    "bind_password_encrypted" TEXT,
    "base_dn" TEXT NOT NULL,
    "user_filter" TEXT NOT NULL,
    "username_attribute" TEXT NOT NULL DEFAULT 'uid',
    "email_attribute" TEXT NOT NULL DEFAULT 'mail',
    "first_name_attribute" TEXT NOT NULL DEFAULT 'givenName',
    "last_name_attribute" TEXT NOT NULL DEFAULT 'sn',
    "group_attribute" TEXT,
    "default_access_type" "AccessType" NOT NULL DEFAULT 'GENERAL_STAFF',
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "auth_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_provider_groups" (
    "id" SERIAL NOT NULL,
    "provider_id" INTEGER NOT NULL,
    "directory_group" TEXT NOT NULL,
    "group_id" INTEGER,
    "access_type" "AccessType",

    CONSTRAINT "auth_provider_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "licences" (
    "id" SERIAL NOT NULL,
    "document" TEXT NOT NULL,
    "document_sha256" TEXT NOT NULL,
    "licensee" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,
    "starts_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "features" JSONB NOT NULL DEFAULT '[]',
    "installed_by_id" INTEGER,
    "installed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replaced_at" TIMESTAMP(3),

    CONSTRAINT "licences_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "categories_parent_id_position_idx" ON "categories"("parent_id", "position");

-- CreateIndex
CREATE INDEX "categories_workflow_id_idx" ON "categories"("workflow_id");

-- CreateIndex
CREATE INDEX "category_fields_field_id_idx" ON "category_fields"("field_id");

-- CreateIndex
CREATE INDEX "category_permissions_user_id_idx" ON "category_permissions"("user_id");

-- CreateIndex
CREATE INDEX "category_permissions_group_id_idx" ON "category_permissions"("group_id");

-- CreateIndex
CREATE UNIQUE INDEX "category_permissions_category_id_user_id_key" ON "category_permissions"("category_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "category_permissions_category_id_group_id_key" ON "category_permissions"("category_id", "group_id");

-- CreateIndex
CREATE INDEX "category_group_members_category_id_idx" ON "category_group_members"("category_id");

-- CreateIndex
CREATE INDEX "category_group_permissions_user_id_idx" ON "category_group_permissions"("user_id");

-- CreateIndex
CREATE INDEX "category_group_permissions_group_id_idx" ON "category_group_permissions"("group_id");

-- CreateIndex
CREATE UNIQUE INDEX "category_group_permissions_category_group_id_user_id_key" ON "category_group_permissions"("category_group_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "category_group_permissions_category_group_id_group_id_key" ON "category_group_permissions"("category_group_id", "group_id");

-- CreateIndex
CREATE INDEX "related_tags_category_id_idx" ON "related_tags"("category_id");

-- CreateIndex
CREATE INDEX "metadata_fields_value_list_id_idx" ON "metadata_fields"("value_list_id");

-- CreateIndex
CREATE INDEX "value_list_items_value_list_id_position_idx" ON "value_list_items"("value_list_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "value_list_items_value_list_id_key_key" ON "value_list_items"("value_list_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "files_current_version_id_key" ON "files"("current_version_id");

-- CreateIndex
CREATE INDEX "files_owner_id_index_status_idx" ON "files"("owner_id", "index_status");

-- CreateIndex
CREATE INDEX "files_checked_out_by_id_idx" ON "files"("checked_out_by_id");

-- CreateIndex
CREATE UNIQUE INDEX "files_category_id_incremental_value_key" ON "files"("category_id", "incremental_value");

-- CreateIndex
CREATE INDEX "file_versions_blob_id_idx" ON "file_versions"("blob_id");

-- CreateIndex
CREATE UNIQUE INDEX "file_versions_file_id_number_key" ON "file_versions"("file_id", "number");

-- CreateIndex
CREATE INDEX "version_texts_status_idx" ON "version_texts"("status");

-- CreateIndex
CREATE INDEX "file_field_values_field_id_value_text_idx" ON "file_field_values"("field_id", "value_text");

-- CreateIndex
CREATE INDEX "file_field_values_field_id_value_number_idx" ON "file_field_values"("field_id", "value_number");

-- CreateIndex
CREATE INDEX "file_field_values_field_id_value_date_idx" ON "file_field_values"("field_id", "value_date");

-- CreateIndex
CREATE INDEX "file_field_values_field_id_value_item_id_idx" ON "file_field_values"("field_id", "value_item_id");

-- CreateIndex
CREATE INDEX "file_tags_tag_id_idx" ON "file_tags"("tag_id");

-- CreateIndex
CREATE INDEX "file_permissions_user_id_idx" ON "file_permissions"("user_id");

-- CreateIndex
CREATE INDEX "file_permissions_group_id_idx" ON "file_permissions"("group_id");

-- CreateIndex
CREATE UNIQUE INDEX "file_permissions_file_id_user_id_key" ON "file_permissions"("file_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "file_permissions_file_id_group_id_key" ON "file_permissions"("file_id", "group_id");

-- CreateIndex
CREATE UNIQUE INDEX "shares_token_hash_key" ON "shares"("token_hash");

-- CreateIndex
CREATE INDEX "shares_file_id_idx" ON "shares"("file_id");

-- CreateIndex
CREATE INDEX "comments_file_id_created_at_idx" ON "comments"("file_id", "created_at");

-- CreateIndex
CREATE INDEX "attachments_file_id_created_at_idx" ON "attachments"("file_id", "created_at");

-- CreateIndex
CREATE INDEX "attachments_blob_id_idx" ON "attachments"("blob_id");

-- CreateIndex
CREATE INDEX "file_follows_user_id_created_at_idx" ON "file_follows"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "file_favourites_user_id_created_at_idx" ON "file_favourites"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "file_views_user_id_last_viewed_at_idx" ON "file_views"("user_id", "last_viewed_at" DESC);

-- CreateIndex
CREATE INDEX "notifications_user_id_created_at_idx" ON "notifications"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "workflow_steps_workflow_id_position_idx" ON "workflow_steps"("workflow_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "step_assignees_step_id_user_id_key" ON "step_assignees"("step_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "step_assignees_step_id_group_id_key" ON "step_assignees"("step_id", "group_id");

-- CreateIndex
CREATE INDEX "step_notifications_step_id_event_idx" ON "step_notifications"("step_id", "event");

-- CreateIndex
CREATE INDEX "step_conditions_step_id_mode_position_idx" ON "step_conditions"("step_id", "mode", "position");

-- CreateIndex
CREATE INDEX "step_triggers_step_id_idx" ON "step_triggers"("step_id");

-- CreateIndex
CREATE INDEX "step_triggers_kind_active_idx" ON "step_triggers"("kind", "active");

-- CreateIndex
CREATE INDEX "workflow_instances_file_id_idx" ON "workflow_instances"("file_id");

-- CreateIndex
CREATE INDEX "workflow_instances_workflow_id_status_idx" ON "workflow_instances"("workflow_id", "status");

-- CreateIndex
CREATE INDEX "workflow_instances_current_step_id_idx" ON "workflow_instances"("current_step_id");

-- CreateIndex
CREATE INDEX "workflow_transitions_instance_id_created_at_idx" ON "workflow_transitions"("instance_id", "created_at");

-- CreateIndex
CREATE INDEX "workflow_tasks_user_id_status_created_at_idx" ON "workflow_tasks"("user_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "workflow_tasks_instance_id_idx" ON "workflow_tasks"("instance_id");

-- CreateIndex
CREATE INDEX "backups_created_at_idx" ON "backups"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "auth_providers_name_key" ON "auth_providers"("name");

-- CreateIndex
CREATE UNIQUE INDEX "auth_provider_groups_provider_id_directory_group_key" ON "auth_provider_groups"("provider_id", "directory_group");

-- CreateIndex
CREATE UNIQUE INDEX "licences_document_sha256_key" ON "licences"("document_sha256");

-- CreateIndex
CREATE UNIQUE INDEX "users_auth_provider_id_external_id_key" ON "users"("auth_provider_id", "external_id");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_auth_provider_id_fkey" FOREIGN KEY ("auth_provider_id") REFERENCES "auth_providers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "categories" ADD CONSTRAINT "categories_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_fields" ADD CONSTRAINT "category_fields_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_fields" ADD CONSTRAINT "category_fields_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_permissions" ADD CONSTRAINT "category_permissions_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_permissions" ADD CONSTRAINT "category_permissions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_permissions" ADD CONSTRAINT "category_permissions_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_group_members" ADD CONSTRAINT "category_group_members_category_group_id_fkey" FOREIGN KEY ("category_group_id") REFERENCES "category_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_group_members" ADD CONSTRAINT "category_group_members_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_group_permissions" ADD CONSTRAINT "category_group_permissions_category_group_id_fkey" FOREIGN KEY ("category_group_id") REFERENCES "category_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_group_permissions" ADD CONSTRAINT "category_group_permissions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_group_permissions" ADD CONSTRAINT "category_group_permissions_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "related_tags" ADD CONSTRAINT "related_tags_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metadata_fields" ADD CONSTRAINT "metadata_fields_value_list_id_fkey" FOREIGN KEY ("value_list_id") REFERENCES "value_lists"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "value_list_items" ADD CONSTRAINT "value_list_items_value_list_id_fkey" FOREIGN KEY ("value_list_id") REFERENCES "value_lists"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_locked_by_id_fkey" FOREIGN KEY ("locked_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_checked_out_by_id_fkey" FOREIGN KEY ("checked_out_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_current_version_id_fkey" FOREIGN KEY ("current_version_id") REFERENCES "file_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_versions" ADD CONSTRAINT "file_versions_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_versions" ADD CONSTRAINT "file_versions_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_versions" ADD CONSTRAINT "file_versions_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_versions" ADD CONSTRAINT "file_versions_rolled_back_from_id_fkey" FOREIGN KEY ("rolled_back_from_id") REFERENCES "file_versions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "version_texts" ADD CONSTRAINT "version_texts_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "file_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_field_values" ADD CONSTRAINT "file_field_values_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_field_values" ADD CONSTRAINT "file_field_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_field_values" ADD CONSTRAINT "file_field_values_value_item_id_fkey" FOREIGN KEY ("value_item_id") REFERENCES "value_list_items"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_tags" ADD CONSTRAINT "file_tags_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_tags" ADD CONSTRAINT "file_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "related_tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_permissions" ADD CONSTRAINT "file_permissions_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_permissions" ADD CONSTRAINT "file_permissions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_permissions" ADD CONSTRAINT "file_permissions_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shares" ADD CONSTRAINT "shares_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shares" ADD CONSTRAINT "shares_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "file_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shares" ADD CONSTRAINT "shares_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_uploaded_by_id_fkey" FOREIGN KEY ("uploaded_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_follows" ADD CONSTRAINT "file_follows_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_follows" ADD CONSTRAINT "file_follows_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_favourites" ADD CONSTRAINT "file_favourites_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_favourites" ADD CONSTRAINT "file_favourites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_views" ADD CONSTRAINT "file_views_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_views" ADD CONSTRAINT "file_views_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_fields" ADD CONSTRAINT "workflow_fields_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_fields" ADD CONSTRAINT "workflow_fields_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_on_approve_step_id_fkey" FOREIGN KEY ("on_approve_step_id") REFERENCES "workflow_steps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_on_reject_step_id_fkey" FOREIGN KEY ("on_reject_step_id") REFERENCES "workflow_steps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_assignees" ADD CONSTRAINT "step_assignees_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "workflow_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_assignees" ADD CONSTRAINT "step_assignees_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_assignees" ADD CONSTRAINT "step_assignees_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_notifications" ADD CONSTRAINT "step_notifications_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "workflow_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_notifications" ADD CONSTRAINT "step_notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_notifications" ADD CONSTRAINT "step_notifications_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_conditions" ADD CONSTRAINT "step_conditions_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "workflow_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_conditions" ADD CONSTRAINT "step_conditions_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_triggers" ADD CONSTRAINT "step_triggers_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "workflow_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_triggers" ADD CONSTRAINT "step_triggers_target_step_id_fkey" FOREIGN KEY ("target_step_id") REFERENCES "workflow_steps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_triggers" ADD CONSTRAINT "step_triggers_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_fields" ADD CONSTRAINT "step_fields_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "workflow_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_fields" ADD CONSTRAINT "step_fields_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_instances" ADD CONSTRAINT "workflow_instances_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_instances" ADD CONSTRAINT "workflow_instances_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_instances" ADD CONSTRAINT "workflow_instances_current_step_id_fkey" FOREIGN KEY ("current_step_id") REFERENCES "workflow_steps"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_instances" ADD CONSTRAINT "workflow_instances_started_by_id_fkey" FOREIGN KEY ("started_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_instance_values" ADD CONSTRAINT "workflow_instance_values_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "workflow_instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_instance_values" ADD CONSTRAINT "workflow_instance_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_instance_values" ADD CONSTRAINT "workflow_instance_values_value_item_id_fkey" FOREIGN KEY ("value_item_id") REFERENCES "value_list_items"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_transitions" ADD CONSTRAINT "workflow_transitions_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "workflow_instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_transitions" ADD CONSTRAINT "workflow_transitions_from_step_id_fkey" FOREIGN KEY ("from_step_id") REFERENCES "workflow_steps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_transitions" ADD CONSTRAINT "workflow_transitions_to_step_id_fkey" FOREIGN KEY ("to_step_id") REFERENCES "workflow_steps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_transitions" ADD CONSTRAINT "workflow_transitions_acted_by_id_fkey" FOREIGN KEY ("acted_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_tasks" ADD CONSTRAINT "workflow_tasks_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "workflow_instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_tasks" ADD CONSTRAINT "workflow_tasks_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "workflow_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_tasks" ADD CONSTRAINT "workflow_tasks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "backups" ADD CONSTRAINT "backups_requested_by_id_fkey" FOREIGN KEY ("requested_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "backups" ADD CONSTRAINT "backups_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "auth_provider_groups" ADD CONSTRAINT "auth_provider_groups_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "auth_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "auth_provider_groups" ADD CONSTRAINT "auth_provider_groups_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "licences" ADD CONSTRAINT "licences_installed_by_id_fkey" FOREIGN KEY ("installed_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- ---------------------------------------------------------------------------------------------
-- What schema.prisma cannot say: live names unique case-insensitively, one grantee per grant,
-- value-list fields, trigram and full-text indexes, one running workflow per file, and the
-- visibility function every list, tree, count and guard reuses.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE UNIQUE INDEX "categories_live_sibling_name_key" ON "categories" (coalesce("parent_id", 0), lower("name")) WHERE "deleted_at" IS NULL;
CREATE INDEX "categories_deleted_at_idx" ON "categories" ("deleted_at") WHERE "deleted_at" IS NOT NULL;
CREATE UNIQUE INDEX "category_groups_name_key" ON "category_groups" (lower("name"));
CREATE UNIQUE INDEX "related_tags_category_name_key" ON "related_tags" ("category_id", lower("name"));
CREATE INDEX "related_tags_name_trgm_idx" ON "related_tags" USING gin (lower("name") gin_trgm_ops);
CREATE UNIQUE INDEX "metadata_fields_live_name_key" ON "metadata_fields" (lower("name")) WHERE "deleted_at" IS NULL;
CREATE UNIQUE INDEX "value_lists_name_key" ON "value_lists" (lower("name"));
CREATE UNIQUE INDEX "value_list_items_live_label_key" ON "value_list_items" ("value_list_id", lower("label")) WHERE "archived_at" IS NULL;
CREATE UNIQUE INDEX "workflows_live_name_key" ON "workflows" (lower("name")) WHERE "deleted_at" IS NULL;

ALTER TABLE "category_permissions" ADD CONSTRAINT "category_permissions_one_grantee" CHECK (("user_id" IS NULL) <> ("group_id" IS NULL));
ALTER TABLE "category_group_permissions" ADD CONSTRAINT "category_group_permissions_one_grantee" CHECK (("user_id" IS NULL) <> ("group_id" IS NULL));
ALTER TABLE "file_permissions" ADD CONSTRAINT "file_permissions_one_grantee" CHECK (("user_id" IS NULL) <> ("group_id" IS NULL));
ALTER TABLE "step_assignees" ADD CONSTRAINT "step_assignees_one_assignee" CHECK (("user_id" IS NULL) <> ("group_id" IS NULL));
ALTER TABLE "metadata_fields" ADD CONSTRAINT "metadata_fields_value_list_for_select" CHECK (("type" = 'select') = ("value_list_id" IS NOT NULL));
ALTER TABLE "value_list_items" ADD CONSTRAINT "value_list_items_key_range" CHECK ("key" BETWEEN 1 AND 10000);
ALTER TABLE "file_field_values" ADD CONSTRAINT "file_field_values_one_value" CHECK (
  num_nonnulls("value_text", "value_number", "value_date", "value_boolean", "value_item_id", "value_user_id") <= 1);
ALTER TABLE "backup_schedules" ADD CONSTRAINT "backup_schedules_one_row" CHECK ("id" = 1);

-- Files: the category list (live, indexed, newest first), unindexed per owner, the trash,
-- names by trigram, the full-text vector.
CREATE INDEX "files_category_live_idx" ON "files" ("category_id", "created_at" DESC, "id" DESC) WHERE "deleted_at" IS NULL AND "index_status" = 'indexed';
CREATE INDEX "files_trash_idx" ON "files" ("deleted_at" DESC, "id" DESC) WHERE "deleted_at" IS NOT NULL;
CREATE INDEX "files_name_trgm_idx" ON "files" USING gin (lower("name") gin_trgm_ops);
CREATE INDEX "files_search_vector_idx" ON "files" USING gin ("search_vector");
CREATE INDEX "notifications_unread_idx" ON "notifications" ("user_id") WHERE "read_at" IS NULL;
CREATE UNIQUE INDEX "workflow_instances_one_running_key" ON "workflow_instances" ("file_id") WHERE "status" = 'running';
CREATE INDEX "workflow_tasks_open_idx" ON "workflow_tasks" ("user_id", "created_at" DESC) WHERE "status" = 'open';
CREATE UNIQUE INDEX "licences_current_key" ON "licences" (("replaced_at" IS NULL)) WHERE "replaced_at" IS NULL;

-- quire_category_rights(user): every live category the user may view through grants, with
-- the rights that hold there. A the category rights are its own grants (to the user, to a
-- group of theirs, or through a category group it belongs to) and, unless it sets
-- inherit_permissions = false, its the parent. Any right implies view. A category under a
-- deleted one is not reached. Area-wide access (File Control admins, the Auditor) does not
-- go through here: the services skip the predicate for them.
CREATE FUNCTION quire_category_rights(p_user integer)
RETURNS TABLE (
  category_id integer, can_view boolean, can_upload boolean, can_edit boolean,
  can_delete boolean, can_share boolean, can_manage boolean
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH RECURSIVE
  my_groups AS (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = p_user),
  grants AS (
    SELECT cp.category_id, cp.can_view, cp.can_upload, cp.can_edit, cp.can_delete, cp.can_share, cp.can_manage
      FROM category_permissions cp
     WHERE cp.user_id = p_user OR cp.group_id IN (SELECT group_id FROM my_groups)
    UNION ALL
    SELECT m.category_id, gp.can_view, gp.can_upload, gp.can_edit, gp.can_delete, gp.can_share, gp.can_manage
      FROM category_group_permissions gp
      JOIN category_group_members m ON m.category_group_id = gp.category_group_id
     WHERE gp.user_id = p_user OR gp.group_id IN (SELECT group_id FROM my_groups)
  ),
  own AS (
    SELECT g.category_id,
           bool_or(g.can_view OR g.can_upload OR g.can_edit OR g.can_delete OR g.can_share OR g.can_manage) AS v,
           bool_or(g.can_upload) AS u, bool_or(g.can_edit) AS e, bool_or(g.can_delete) AS d,
           bool_or(g.can_share) AS s, bool_or(g.can_manage) AS m
      FROM grants g GROUP BY g.category_id
  ),
  tree AS (
    SELECT c.id, coalesce(o.v, false) AS v, coalesce(o.u, false) AS u, coalesce(o.e, false) AS e,
           coalesce(o.d, false) AS d, coalesce(o.s, false) AS s, coalesce(o.m, false) AS m
      FROM categories c LEFT JOIN own o ON o.category_id = c.id
     WHERE c.parent_id IS NULL AND c.deleted_at IS NULL
    UNION ALL
    SELECT c.id,
           coalesce(o.v, false) OR (c.inherit_permissions AND t.v),
           coalesce(o.u, false) OR (c.inherit_permissions AND t.u),
           coalesce(o.e, false) OR (c.inherit_permissions AND t.e),
           coalesce(o.d, false) OR (c.inherit_permissions AND t.d),
           coalesce(o.s, false) OR (c.inherit_permissions AND t.s),
           coalesce(o.m, false) OR (c.inherit_permissions AND t.m)
      FROM categories c
      JOIN tree t ON c.parent_id = t.id
      LEFT JOIN own o ON o.category_id = c.id
     WHERE c.deleted_at IS NULL
  )
  SELECT id, v, u, e, d, s, m FROM tree WHERE v
$$;

-- quire_file_rights(user): the files with their own grants (has_own_permissions) that the
-- user may view through them, with the rights that hold. Files without own grants take
-- their the category rights (quire_category_rights), the owner always sees their own files.
CREATE FUNCTION quire_file_rights(p_user integer)
RETURNS TABLE (
  file_id integer, can_view boolean, can_download boolean, can_edit boolean,
  can_delete boolean, can_share boolean
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT fp.file_id,
         true,
         bool_or(fp.can_download), bool_or(fp.can_edit), bool_or(fp.can_delete), bool_or(fp.can_share)
    FROM file_permissions fp
   WHERE fp.user_id = p_user
      OR fp.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = p_user)
   GROUP BY fp.file_id
$$;
