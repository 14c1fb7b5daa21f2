// The file actions share the files area's named errors (one wording for a file held by
// someone else, whichever call meets it).
export {
  attachmentNotFound,
  fileCheckedOut,
  fileLocked,
  fileNotFound,
  notCheckedOut,
  versionNotFound,
} from '../file/file.errors.js';
