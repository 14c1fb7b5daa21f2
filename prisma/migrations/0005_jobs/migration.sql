-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateTable
CREATE TABLE "jobs" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 5,
    "run_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "key" TEXT,
    "locked_by" TEXT,
    "heartbeat_at" TIMESTAMP(3),
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_schedules" (
    "name" TEXT NOT NULL,
    "cron" TEXT,
    "last_due_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "job_schedules_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "jobs_due_idx" ON "jobs"("kind", "run_at") WHERE (status = 'queued'::"JobStatus");

-- CreateIndex
CREATE INDEX "jobs_running_idx" ON "jobs"("heartbeat_at") WHERE (status = 'running'::"JobStatus");

-- CreateIndex
CREATE INDEX "jobs_finished_idx" ON "jobs"("finished_at") WHERE (status = ANY (ARRAY['done'::"JobStatus", 'failed'::"JobStatus"]));

-- CreateIndex
CREATE UNIQUE INDEX "jobs_key_active_key" ON "jobs"("key") WHERE (status = ANY (ARRAY['queued'::"JobStatus", 'running'::"JobStatus"]));

-- Mail that was waiting when this migration ran: each queued message gets its mail.send job
-- (a message left "sending" by a stopped server goes back to the queue).
UPDATE "mail_jobs" SET "status" = 'queued', "locked_at" = NULL WHERE "status" = 'sending';
INSERT INTO "jobs" ("kind", "payload", "max_attempts", "attempts", "run_at", "key")
SELECT 'mail.send', jsonb_build_object('mail_id', "id"), GREATEST("max_attempts", "attempts" + 1), "attempts", "run_at", 'mail:' || "id"
FROM "mail_jobs" WHERE "status" = 'queued';
