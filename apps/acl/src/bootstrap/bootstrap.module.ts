import { Module } from '@nestjs/common';
import { AdminBootstrap } from './admin-bootstrap.service';

@Module({ providers: [AdminBootstrap] })
export class BootstrapModule {}
