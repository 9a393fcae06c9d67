import { Body, Controller, Get, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type CollectionView } from '@media/contracts';
import { ApiErrors, ApiSuccess, Idempotent, type Page, RequirePermissions } from '@media/http';
import type { Request } from 'express';
import { CollectionsService } from './collections.service';
import { CreateCollectionDto, ListCollectionsQuery } from './dto/collection.dto';
import { CollectionResponse } from './dto/collection.response';

@ApiTags('commissions')
@ApiBearerAuth()
@RequirePermissions(Permissions.commissionsReadAll)
@Controller('api/v1/collections')
export class CollectionsController {
  constructor(@Inject(CollectionsService) private readonly collections: CollectionsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Record a collection' })
  @ApiSuccess(CollectionResponse, { status: 201, description: 'The recorded collection.' })
  @ApiErrors(401, 403, 413, 415, 422, 503)
  create(@Body() dto: CreateCollectionDto): Promise<CollectionView> {
    return this.collections.create(dto);
  }

  @Get()
  @ApiOperation({ summary: 'List collections (cursor)' })
  @ApiSuccess(CollectionResponse, { list: 'page', description: 'Collections, latest first, then id.' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListCollectionsQuery, @Req() req: Request): Promise<Page<CollectionView>> {
    return this.collections.list(query, req);
  }
}
