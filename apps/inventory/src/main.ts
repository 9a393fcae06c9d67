import { runApp } from '@media/platform';
import { inventoryApp } from './app.definition';

void runApp(inventoryApp);
