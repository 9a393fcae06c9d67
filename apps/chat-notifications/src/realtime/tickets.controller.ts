import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessTokenClaims } from '@media/contracts';
import { ApiErrors, ApiSuccess, envelope, type Envelope } from '@media/http';
import { bearerToken, Unauthenticated } from '@media/core';
import type { Request } from 'express';
import jwt from 'jsonwebtoken';
import { TicketResponse } from './dto/ticket.response';
import { TicketsService } from './tickets.service';

@ApiTags('realtime')
@ApiBearerAuth()
@Controller('v1/ws')
export class TicketsController {
  constructor(@Inject(TicketsService) private readonly tickets: TicketsService) {}

  /** A single-use ticket (valid 30 s) for a browser's websocket upgrade. */
  @Post('tickets')
  @HttpCode(201)
  @ApiOperation({ summary: 'A single-use websocket ticket (valid 30 s)' })
  @ApiSuccess(TicketResponse, { status: 201, envelope: true, description: 'Ticket issued' })
  @ApiErrors(401)
  async issue(@Req() req: Request): Promise<Envelope<TicketResponse>> {
    // The guard verified this token; its claims (exp in particular) travel with the ticket.
    const raw = bearerToken(req.headers.authorization);
    const claims = raw ? (jwt.decode(raw) as AccessTokenClaims | null) : null;
    if (!claims)
      throw new Unauthenticated('not_authenticated', 'Authentication credentials were not provided.');
    return envelope('Ticket issued', await this.tickets.issue(claims));
  }
}
