import { runApp } from '@media/platform';
import { commercialApp } from './app.definition';

void runApp(commercialApp);
