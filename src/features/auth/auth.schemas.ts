/** Request and response schemas of the sign-up, login and session endpoints. */
import { Type, type Static } from 'typebox';
import { ROLES, TABS } from '../../platform/auth/principal.ts';

export const SignupBodySchema = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  password: Type.String({ minLength: 8, maxLength: 256 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  account_name: Type.Optional(Type.String({ maxLength: 200 })),
  invite_token: Type.Optional(Type.String({ maxLength: 200 })),
});
export type SignupBody = Static<typeof SignupBodySchema>;

export const LoginBodySchema = Type.Object({
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 256 }),
});
export type LoginBody = Static<typeof LoginBodySchema>;

const UserSchema = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() });
const AccountSchema = Type.Object({ id: Type.String(), name: Type.String() });

export const AuthResponseSchema = Type.Object({ token: Type.String(), user: UserSchema, account: AccountSchema });

export const MeResponseSchema = Type.Object({
  user: UserSchema,
  account: AccountSchema,
  role: Type.Enum(ROLES),
  tabs: Type.Array(Type.Enum(TABS)),
});
