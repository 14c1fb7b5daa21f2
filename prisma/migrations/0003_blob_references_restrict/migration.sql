-- DropForeignKey
ALTER TABLE "companies" DROP CONSTRAINT "companies_background_blob_id_fkey";

-- DropForeignKey
ALTER TABLE "companies" DROP CONSTRAINT "companies_logo_blob_id_fkey";

-- DropForeignKey
ALTER TABLE "users" DROP CONSTRAINT "users_signature_blob_id_fkey";

-- AddForeignKey
ALTER TABLE "companies" ADD CONSTRAINT "companies_logo_blob_id_fkey" FOREIGN KEY ("logo_blob_id") REFERENCES "blobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "companies" ADD CONSTRAINT "companies_background_blob_id_fkey" FOREIGN KEY ("background_blob_id") REFERENCES "blobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_signature_blob_id_fkey" FOREIGN KEY ("signature_blob_id") REFERENCES "blobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
