import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type StoryCategoryView } from '@media/contracts';
import { ApiErrors, ApiNoContent, ApiSuccess, Idempotent, type Page, RequirePermissions } from '@media/http';
import type { Request } from 'express';
import {
  CreateStoryCategoryDto,
  ListStoryCategoriesQuery,
  StoryCategoryIdParams,
  UpdateStoryCategoryDto,
} from './dto/story-category.dto';
import { StoryCategoryResponse } from './dto/story-category.response';
import { StoryCategoriesService } from './story-categories.service';

@ApiTags('story-categories')
@ApiBearerAuth()
@ApiExtraModels(StoryCategoryResponse)
@Controller('api/v1/story-categories')
export class StoryCategoriesController {
  constructor(@Inject(StoryCategoriesService) private readonly categories: StoryCategoriesService) {}

  @Get()
  @ApiOperation({ summary: 'List story categories (cursor)' })
  @RequirePermissions(Permissions.storyCategoriesRead)
  @ApiSuccess(StoryCategoryResponse, { list: 'page', description: 'By name (byte order), then id' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListStoryCategoriesQuery, @Req() req: Request): Promise<Page<StoryCategoryView>> {
    return this.categories.list(query, req);
  }

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a story category' })
  @RequirePermissions(Permissions.storyCategoriesWrite)
  @ApiSuccess(StoryCategoryResponse, { status: 201 })
  @ApiErrors(401, 403, 409, 413, 415, 422)
  create(@Body() dto: CreateStoryCategoryDto): Promise<StoryCategoryView> {
    return this.categories.create(dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get one story category' })
  @RequirePermissions(Permissions.storyCategoriesRead)
  @ApiSuccess(StoryCategoryResponse)
  @ApiErrors(401, 403, 404, 422)
  get(@Param() params: StoryCategoryIdParams): Promise<StoryCategoryView> {
    return this.categories.get(params.id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update some fields of a story category' })
  @RequirePermissions(Permissions.storyCategoriesWrite)
  @ApiSuccess(StoryCategoryResponse)
  @ApiErrors(401, 403, 404, 409, 413, 415, 422)
  update(
    @Param() params: StoryCategoryIdParams,
    @Body() dto: UpdateStoryCategoryDto,
  ): Promise<StoryCategoryView> {
    return this.categories.update(params.id, dto);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Replace a story category' })
  @RequirePermissions(Permissions.storyCategoriesWrite)
  @ApiSuccess(StoryCategoryResponse)
  @ApiErrors(401, 403, 404, 409, 413, 415, 422)
  replace(
    @Param() params: StoryCategoryIdParams,
    @Body() dto: CreateStoryCategoryDto,
  ): Promise<StoryCategoryView> {
    return this.categories.replace(params.id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a story category' })
  @HttpCode(204)
  @RequirePermissions(Permissions.storyCategoriesWrite)
  @ApiNoContent('Deleted')
  @ApiErrors(401, 403, 404, 422)
  async remove(@Param() params: StoryCategoryIdParams): Promise<void> {
    await this.categories.remove(params.id);
  }
}
