-- AlterTable
ALTER TABLE "files" ADD COLUMN     "unindexed_group_id" INTEGER;

-- AlterTable
ALTER TABLE "intake_rules" ADD COLUMN     "unindexed_group_id" INTEGER,
ADD COLUMN     "unindexed_user_id" INTEGER;

-- AlterTable
ALTER TABLE "intake_sources" ADD COLUMN     "unindexed_group_id" INTEGER;

-- CreateIndex
CREATE INDEX "files_unindexed_group_idx" ON "files"("unindexed_group_id") WHERE (unindexed_group_id IS NOT NULL);

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_unindexed_group_id_fkey" FOREIGN KEY ("unindexed_group_id") REFERENCES "groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_sources" ADD CONSTRAINT "intake_sources_unindexed_group_id_fkey" FOREIGN KEY ("unindexed_group_id") REFERENCES "groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_rules" ADD CONSTRAINT "intake_rules_unindexed_user_id_fkey" FOREIGN KEY ("unindexed_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intake_rules" ADD CONSTRAINT "intake_rules_unindexed_group_id_fkey" FOREIGN KEY ("unindexed_group_id") REFERENCES "groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;
