import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StoryCategoriesController } from './story-categories.controller';
import { StoryCategoriesService } from './story-categories.service';
import { StoryCategory } from './story-category.entity';
import { Feature } from '@media/platform';
import { CreateStoryCategories1764100000001 } from '../database/migrations/1764100000001-create-story-categories';

@Feature({ entities: [StoryCategory], migrations: [CreateStoryCategories1764100000001] })
@Module({
  imports: [TypeOrmModule.forFeature([StoryCategory])],
  controllers: [StoryCategoriesController],
  providers: [StoryCategoriesService],
})
export class StoryCategoriesModule {}
