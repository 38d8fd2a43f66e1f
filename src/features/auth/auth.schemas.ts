/** Request and response schemas of the sign-up, login and session endpoints. */
import { Type, type Static } from 'typebox';
import { ROLES, TABS } from '../../platform/auth/principal.ts';
import { EXAMPLE, withExamples } from '../../platform/schemas.ts';

export const SignupBodySchema = withExamples(
  Type.Object({
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 256 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    account_name: Type.Optional(Type.String({ maxLength: 200 })),
    invite_token: Type.Optional(Type.String({ maxLength: 200, description: 'parley_inv_…: joins the inviting account' })),
  }),
  { email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada Lovelace', account_name: 'Example Shop' },
);
export type SignupBody = Static<typeof SignupBodySchema>;

export const LoginBodySchema = withExamples(
  Type.Object({
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: 256 }),
  }),
  { email: 'ada@example.com', password: 'correct horse battery staple' },
);
export type LoginBody = Static<typeof LoginBodySchema>;

const UserSchema = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() });
const AccountSchema = Type.Object({ id: Type.String(), name: Type.String() });

const user = { id: EXAMPLE.userId, email: 'ada@example.com', name: 'Ada Lovelace' };
const account = { id: EXAMPLE.accountId, name: 'Example Shop' };

export const AuthResponseSchema = withExamples(Type.Object({ token: Type.String({ description: 'parley_ds_…, also set as the parley_session cookie' }), user: UserSchema, account: AccountSchema }), {
  token: 'parley_ds_Xk3pR9vLm2Qw7sT5yN8bC1dF4gH6jK0aZe',
  user,
  account,
});

export const MeResponseSchema = withExamples(
  Type.Object({
    user: UserSchema,
    account: AccountSchema,
    role: Type.Enum(ROLES),
    tabs: Type.Array(Type.Enum(TABS)),
  }),
  { user, account, role: 'owner', tabs: [...TABS] },
);

export const ProfileBodySchema = withExamples(
  Type.Object({
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    current_password: Type.Optional(Type.String({ maxLength: 256, description: 'required with `new_password`' })),
    new_password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  }),
  { name: 'Ada King' },
  { current_password: 'correct horse battery staple', new_password: 'a longer passphrase than before' },
);

export const SignupStatusSchema = withExamples(
  Type.Object({
    signup_open: Type.Boolean({ description: 'a sign-up without an invitation would be accepted now' }),
    mode: Type.Union([Type.Literal('open'), Type.Literal('first'), Type.Literal('closed')], { description: 'PARLEY_SIGNUP' }),
  }),
  { signup_open: true, mode: 'first' },
);
