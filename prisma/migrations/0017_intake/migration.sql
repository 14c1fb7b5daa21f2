-- CreateEnum
CREATE TYPE "IntakeSourceKind" AS ENUM ('folder', 'imap');

-- CreateEnum
CREATE TYPE "IntakeFileAs" AS ENUM ('indexed', 'unindexed');

-- CreateEnum
CREATE TYPE "IntakeSourceState" AS ENUM ('idle', 'running', 'error');

-- CreateEnum
CREATE TYPE "IntakeArrivalStatus" AS ENUM ('taken', 'failed');

-- CreateTable
CREATE TABLE "intake_sources" (
    "id" SERIAL NOT NULL,
    "kind" "IntakeSourceKind" NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "category_id" INTEGER NOT NULL,
    "file_as" "IntakeFileAs" NOT NULL DEFAULT 'indexed',
    "owner_id" INTEGER NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "state" "IntakeSourceState" NOT NULL DEFAULT 'idle',
    "last_error" TEXT,
    "last_run_at" TIMESTAMP(3),
    "taken_count" INTEGER NOT NULL DEFAULT 0,
    "failed_count" INTEGER NOT NULL DEFAULT 0,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "intake_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "intake_arrivals" (
    "id" SERIAL NOT NULL,
    "source_id" INTEGER NOT NULL,
    "external_key" TEXT NOT NULL,
    "status" "IntakeArrivalStatus" NOT NULL,
    "reason" TEXT,
    "file_name" TEXT NOT NULL,
    "size" BIGINT,
    "file_id" INTEGER,
    "rule_id" INTEGER,
    "rule_name" TEXT,
    "ruled_at" TIMESTAMP(3),
    "sender" TEXT,
    "subject" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "intake_arrivals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "intake_rules" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "source_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "sender_contains" TEXT,
    "name_glob" TEXT,
    "text_words" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "category_id" INTEGER,
    "values" JSONB NOT NULL DEFAULT '[]',
    "tag_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "workflow_id" INTEGER,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "intake_rules_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "intake_sources_name_key" ON "intake_sources"("name");

-- CreateIndex
CREATE INDEX "intake_sources_kind_enabled_idx" ON "intake_sources"("kind", "enabled");

-- CreateIndex
CREATE INDEX "intake_arrivals_created_at_id_idx" ON "intake_arrivals"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "intake_arrivals_file_id_idx" ON "intake_arrivals"("file_id");

-- CreateIndex
CREATE INDEX "intake_arrivals_rule_id_idx" ON "intake_arrivals"("rule_id");

-- CreateIndex
CREATE UNIQUE INDEX "intake_arrivals_source_id_external_key_key" ON "intake_arrivals"("source_id", "external_key");

-- CreateIndex
CREATE INDEX "intake_rules_position_idx" ON "intake_rules"("position");

-- AddForeignKey
ALTER TABLE "intake_sources" ADD CONSTRAINT "intake_sources_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_sources" ADD CONSTRAINT "intake_sources_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_arrivals" ADD CONSTRAINT "intake_arrivals_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "intake_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_arrivals" ADD CONSTRAINT "intake_arrivals_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_arrivals" ADD CONSTRAINT "intake_arrivals_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "intake_rules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_rules" ADD CONSTRAINT "intake_rules_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_rules" ADD CONSTRAINT "intake_rules_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE SET NULL ON UPDATE CASCADE;
