-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "source_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "notifications_user_id_source_key_key" ON "notifications"("user_id", "source_key");
