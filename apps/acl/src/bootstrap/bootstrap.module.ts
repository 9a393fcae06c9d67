import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { Feature } from '@media/platform';

/** Owns no table. */
@Feature({})
@Module({ imports: [UsersModule], providers: [AdminBootstrapService] })
export class BootstrapModule {}
