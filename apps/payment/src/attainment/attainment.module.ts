import { Module } from '@nestjs/common';
import { AttainmentController } from './attainment.controller';
import { AttainmentService } from './attainment.service';

@Module({ controllers: [AttainmentController], providers: [AttainmentService] })
export class AttainmentModule {}
