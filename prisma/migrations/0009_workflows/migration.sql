-- AlterEnum
ALTER TYPE "InstanceStatus" ADD VALUE 'rejected';

-- AlterTable
ALTER TABLE "workflow_instances" ADD COLUMN     "overdue_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "workflow_transitions" ADD COLUMN     "notified_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "workflow_instances_due_idx" ON "workflow_instances"("due_at") WHERE ((status = 'running'::"InstanceStatus") AND (overdue_at IS NULL) AND (due_at IS NOT NULL));
