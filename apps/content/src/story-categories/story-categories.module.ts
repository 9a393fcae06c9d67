import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StoryCategoriesController } from './story-categories.controller';
import { StoryCategoriesService } from './story-categories.service';
import { StoryCategory } from './story-category.entity';

@Module({
  imports: [TypeOrmModule.forFeature([StoryCategory])],
  controllers: [StoryCategoriesController],
  providers: [StoryCategoriesService],
})
export class StoryCategoriesModule {}
