import { CreateDocuments1765000000000 } from './1765000000000-create-documents';
import { CreateStorageOwner1765000000001 } from './1765000000001-create-storage-owner';

/** documents's migrations, in order. */
export const migrations = [CreateDocuments1765000000000, CreateStorageOwner1765000000001];
