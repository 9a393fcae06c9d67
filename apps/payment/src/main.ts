import { runApp } from '@media/platform';
import { paymentApp } from './app.definition';

void runApp(paymentApp);
