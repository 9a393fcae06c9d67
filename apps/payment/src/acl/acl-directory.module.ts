import { Global, Module } from '@nestjs/common';
import { AclDirectory } from './acl-directory.service';

@Global()
@Module({ providers: [AclDirectory], exports: [AclDirectory] })
export class AclDirectoryModule {}
