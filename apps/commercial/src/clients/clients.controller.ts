import { Body, Controller, Get, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type ClientView } from '@media/contracts';
import { ApiErrors, ApiSuccess, Idempotent, type Page, RequirePermissions } from '@media/http';
import type { Request } from 'express';
import { ClientsService } from './clients.service';
import { CreateClientDto, ListClientsQuery } from './dto/client.dto';
import { ClientResponse } from './dto/client.response';

@ApiTags('clients')
@ApiBearerAuth()
@RequirePermissions(Permissions.analyticsSales)
@Controller('api/v1/clients')
export class ClientsController {
  constructor(@Inject(ClientsService) private readonly clients: ClientsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a client' })
  @ApiSuccess(ClientResponse, { status: 201, description: 'The created client.' })
  @ApiErrors(401, 403, 409, 413, 415, 422)
  create(@Body() dto: CreateClientDto): Promise<ClientView> {
    return this.clients.create(dto);
  }

  @Get()
  @ApiOperation({ summary: 'List clients (cursor)' })
  @ApiSuccess(ClientResponse, { list: 'page', description: 'Clients by name (byte order), then id.' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListClientsQuery, @Req() req: Request): Promise<Page<ClientView>> {
    return this.clients.list(query, req);
  }
}
