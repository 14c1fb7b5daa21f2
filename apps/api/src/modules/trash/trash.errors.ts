export { categoryNotFound, fileNotFound, restoreNeedsCategory } from '../file/file.errors.js';
