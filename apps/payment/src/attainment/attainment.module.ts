import { Module } from '@nestjs/common';
import { AttainmentController } from './attainment.controller';
import { AttainmentService } from './attainment.service';
import { Feature } from '@media/platform';

/** Owns no table. */
@Feature({})
@Module({ controllers: [AttainmentController], providers: [AttainmentService] })
export class AttainmentModule {}
