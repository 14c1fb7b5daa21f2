-- CreateEnum
CREATE TYPE "RetentionUnit" AS ENUM ('days', 'months', 'years');

-- CreateEnum
CREATE TYPE "RetentionStart" AS ENUM ('upload', 'field_date', 'workflow_end');

-- CreateEnum
CREATE TYPE "RetentionAction" AS ENUM ('review', 'trash', 'purge');

-- CreateEnum
CREATE TYPE "LegalHoldTarget" AS ENUM ('file', 'category', 'saved_view');

-- CreateEnum
CREATE TYPE "DispositionStatus" AS ENUM ('pending', 'postponed', 'approved');

-- CreateTable
CREATE TABLE "retention_rules" (
    "id" SERIAL NOT NULL,
    "category_id" INTEGER NOT NULL,
    "keep_for" INTEGER NOT NULL,
    "unit" "RetentionUnit" NOT NULL,
    "start_from" "RetentionStart" NOT NULL,
    "date_field_id" INTEGER,
    "action" "RetentionAction" NOT NULL,
    "review_group_id" INTEGER,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "retention_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "legal_holds" (
    "id" SERIAL NOT NULL,
    "target" "LegalHoldTarget" NOT NULL,
    "file_id" INTEGER,
    "category_id" INTEGER,
    "saved_view_id" INTEGER,
    "target_name" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "set_by_id" INTEGER NOT NULL,
    "set_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_at" TIMESTAMP(3),
    "released_by_id" INTEGER,
    "release_reason" TEXT,

    CONSTRAINT "legal_holds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "legal_hold_files" (
    "hold_id" INTEGER NOT NULL,
    "file_id" INTEGER NOT NULL,

    CONSTRAINT "legal_hold_files_pkey" PRIMARY KEY ("hold_id","file_id")
);

-- CreateTable
CREATE TABLE "retention_dispositions" (
    "id" SERIAL NOT NULL,
    "file_id" INTEGER NOT NULL,
    "rule_id" INTEGER,
    "rule_summary" TEXT NOT NULL,
    "action" "RetentionAction" NOT NULL,
    "review_group_id" INTEGER,
    "due_at" TIMESTAMP(3) NOT NULL,
    "status" "DispositionStatus" NOT NULL DEFAULT 'pending',
    "postponed_until" TIMESTAMP(3),
    "decided_by_id" INTEGER,
    "decided_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retention_dispositions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "retention_rules_category_id_key" ON "retention_rules"("category_id");

-- CreateIndex
CREATE INDEX "legal_holds_active_file_idx" ON "legal_holds"("file_id") WHERE (released_at IS NULL);

-- CreateIndex
CREATE INDEX "legal_holds_active_category_idx" ON "legal_holds"("category_id") WHERE (released_at IS NULL);

-- CreateIndex
CREATE INDEX "legal_holds_set_at_id_idx" ON "legal_holds"("set_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "legal_hold_files_file_id_idx" ON "legal_hold_files"("file_id");

-- CreateIndex
CREATE INDEX "retention_dispositions_status_due_at_idx" ON "retention_dispositions"("status", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "retention_dispositions_file_id_rule_id_key" ON "retention_dispositions"("file_id", "rule_id");

-- AddForeignKey
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_date_field_id_fkey" FOREIGN KEY ("date_field_id") REFERENCES "metadata_fields"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_review_group_id_fkey" FOREIGN KEY ("review_group_id") REFERENCES "groups"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_saved_view_id_fkey" FOREIGN KEY ("saved_view_id") REFERENCES "saved_views"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_set_by_id_fkey" FOREIGN KEY ("set_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_released_by_id_fkey" FOREIGN KEY ("released_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legal_hold_files" ADD CONSTRAINT "legal_hold_files_hold_id_fkey" FOREIGN KEY ("hold_id") REFERENCES "legal_holds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legal_hold_files" ADD CONSTRAINT "legal_hold_files_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_dispositions" ADD CONSTRAINT "retention_dispositions_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_dispositions" ADD CONSTRAINT "retention_dispositions_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "retention_rules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_dispositions" ADD CONSTRAINT "retention_dispositions_review_group_id_fkey" FOREIGN KEY ("review_group_id") REFERENCES "groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_dispositions" ADD CONSTRAINT "retention_dispositions_decided_by_id_fkey" FOREIGN KEY ("decided_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
