import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsName } from '@media/kernel';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** An email address, trimmed and lowercased before it is checked: emails compare case-insensitively. */
export const IsUserEmail = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
    IsString(),
    MaxLength(254),
    IsEmail({}, { message: 'value is not a valid email address' }),
  );

/** A name part: trimmed (as DRF's CharField does), then 1..150 characters as Django's user model allows. */
export const IsNamePart = () =>
  applyDecorators(Transform(trim), IsString(), MinLength(1), MaxLength(150), IsName());

/** Digits with the usual separators and an optional leading +, up to 32 characters. */
export const IsPhoneNumber = () =>
  applyDecorators(
    Transform(trim),
    IsString(),
    MinLength(3),
    MaxLength(32),
    Matches(/^\+?[0-9][0-9 ().-]*$/, { message: 'value is not a valid phone number' }),
  );

export const IsEmployeeNumber = () =>
  applyDecorators(Transform(trim), IsString(), MinLength(1), MaxLength(64));
