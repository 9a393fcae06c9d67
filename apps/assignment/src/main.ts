import { runApp } from '@media/platform';
import { assignmentApp } from './app.definition';

void runApp(assignmentApp);
