import { runApp } from '@media/platform';
import { documentsApp } from './app.definition';

void runApp(documentsApp);
