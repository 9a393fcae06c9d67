import { runApp } from '@media/platform';
import { aclApp } from './app.definition';

void runApp(aclApp);
