import { CreateDocuments1765000000000 } from './1765000000000-create-documents';

/** documents's migrations, in order. */
export const migrations = [CreateDocuments1765000000000];
