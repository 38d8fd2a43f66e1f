/** POST /api/auth/signup, /login, /logout and GET /api/auth/me (decisions.md, bootstrap API). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf, SESSION_COOKIE } from '../../platform/auth/auth.ts';
import { errorResponses } from '../../platform/schemas.ts';
import type { AuthResult, AuthService } from './auth.service.ts';
import type { SignupMode } from '../../config/config.ts';
import { AuthResponseSchema, LoginBodySchema, MeResponseSchema, ProfileBodySchema, SignupBodySchema, SignupStatusSchema } from './auth.schemas.ts';

export function authRoutes(deps: { auth: AuthService; secureCookies: boolean; signupMode: SignupMode }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { auth } = deps;

    function sendSession(reply: FastifyReply, status: number, result: AuthResult) {
      const cookie = fastify.serializeCookie(SESSION_COOKIE, result.token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.secureCookies,
        expires: new Date(result.expiresAt),
      });
      reply.header('set-cookie', cookie);
      return reply.code(status).send({ token: result.token, user: result.user, account: result.account });
    }

    app.post('/api/auth/signup', {
      schema: {
        operationId: 'signup',
        tags: ['auth'],
        summary: 'Sign up',
        description:
          'Creates a user and, unless `invite_token` joins an existing account, an account the user owns; answers a dashboard session. Who may sign up follows PARLEY_SIGNUP (403 when refused); an email already in use answers 409.',
        body: SignupBodySchema,
        response: { 201: AuthResponseSchema, ...errorResponses, 409: errorResponses[400] },
      },
      handler: async (request, reply) => sendSession(reply, 201, await auth.signup(request.body)),
    });

    app.post('/api/auth/login', {
      schema: {
        operationId: 'login',
        tags: ['auth'],
        summary: 'Log in',
        description: 'Answers a dashboard session token, also set as the `parley_session` cookie. A wrong email or password answers 401.',
        body: LoginBodySchema,
        response: { 200: AuthResponseSchema, ...errorResponses },
      },
      handler: async (request, reply) => sendSession(reply, 200, await auth.login(request.body.email, request.body.password, request.ip)),
    });

    app.post('/api/auth/logout', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        summary: 'Log out',
        description: 'The session stops working at once.',
        response: { 204: Type.Null(), ...errorResponses },
      },
      handler: async (request, reply) => {
        await auth.logout(principalOf(request, 'dashboard').sessionId);
        reply.header('set-cookie', fastify.serializeCookie(SESSION_COOKIE, '', { path: '/', expires: new Date(0), maxAge: 0 }));
        return reply.code(204).send(null);
      },
    });

    app.get('/api/auth/me', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'me',
        tags: ['auth'],
        summary: 'Who is signed in',
        description: 'The user, the account, the role and the dashboard tabs granted.',
        response: { 200: MeResponseSchema, ...errorResponses },
      },
      handler: async (request) => auth.describe(principalOf(request, 'dashboard')),
    });

    app.patch('/api/auth/me', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'updateProfile',
        tags: ['auth'],
        summary: 'Change your name or password',
        description:
          'Only the fields sent change. A new password needs `current_password` (403 when it is wrong) and ends your other sessions; this one stays. Answers as `GET /api/auth/me`.',
        body: ProfileBodySchema,
        response: { 200: MeResponseSchema, ...errorResponses },
      },
      handler: async (request) => auth.updateProfile(principalOf(request, 'dashboard'), request.body),
    });

    app.get('/api/auth/signup-status', {
      schema: {
        operationId: 'signupStatus',
        tags: ['auth'],
        summary: 'Whether sign-up is open',
        description:
          "For the dashboard's first run: with PARLEY_SIGNUP `first`, sign-up is open until the first user exists (who becomes the owner); later users join by invitation, which works in every mode.",
        response: { 200: SignupStatusSchema, 429: errorResponses[429] },
      },
      handler: async () => ({ signup_open: await auth.signupOpen(), mode: deps.signupMode }),
    });
  };
}
