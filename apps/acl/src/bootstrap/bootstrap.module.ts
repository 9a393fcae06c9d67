import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AdminBootstrap } from './admin-bootstrap.service';

@Module({ imports: [UsersModule], providers: [AdminBootstrap] })
export class BootstrapModule {}
