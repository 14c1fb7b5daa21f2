-- CreateEnum
CREATE TYPE "DerivativeKind" AS ENUM ('thumbnail', 'preview');

-- AlterTable
ALTER TABLE "version_texts" ADD COLUMN     "ocr_at" TIMESTAMP(3),
ADD COLUMN     "ocr_languages" TEXT,
ADD COLUMN     "ocr_pages" INTEGER,
ADD COLUMN     "page_starts" INTEGER[] DEFAULT ARRAY[]::INTEGER[];

-- CreateTable
CREATE TABLE "version_derivatives" (
    "version_id" INTEGER NOT NULL,
    "kind" "DerivativeKind" NOT NULL,
    "blob_id" TEXT,
    "mime_type" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "version_derivatives_pkey" PRIMARY KEY ("version_id","kind")
);

-- CreateIndex
CREATE INDEX "version_derivatives_blob_id_idx" ON "version_derivatives"("blob_id");

-- AddForeignKey
ALTER TABLE "version_derivatives" ADD CONSTRAINT "version_derivatives_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "file_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "version_derivatives" ADD CONSTRAINT "version_derivatives_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
