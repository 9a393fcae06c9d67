import { runApp } from '@media/platform';
import { contentApp } from './app.definition';

void runApp(contentApp);
