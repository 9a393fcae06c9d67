import { runApp } from '@media/platform';
import { chatNotificationsApp } from './app.definition';

void runApp(chatNotificationsApp);
