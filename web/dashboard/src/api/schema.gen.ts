// Generated from the service's OpenAPI document by `npm run generate:dashboard-api`
// (scripts/generate-dashboard-api.ts). Do not edit: change the routes' schemas and regenerate.
/* eslint-disable */

/** Every operation the dashboard may call, by operationId: parameters, body and success response. */
export interface Operations {
  dashboardAddKnowledge: {
    /** Add a text or a web page */
    path: {
      bot_id: string;
    };
    query: never;
    body: {
      type: "text" | "url";
      /** the source's name (required for text; a page defaults to its URL) */
      name?: string;
      /** the text (type text) */
      content?: string;
      /** the page, http:// or https:// (type url) */
      url?: string;
      crawl_schedule?: "hourly" | "daily" | "weekly" | null;
    };
    response: {
      success: boolean;
      source: {
        id: string;
        bot_id: string;
        type: string;
        name: string;
        title: string;
        url: string | null;
        status: string;
        status_detail: string | null;
        char_count: number;
        content_preview: string;
        crawl_schedule: string | null;
        next_crawl_at: string | null;
        last_crawled_at: string | null;
        created_at: string;
      };
    };
  };
  dashboardCreateBot: {
    /** Create a bot */
    path: never;
    query: never;
    body: {
      name: string;
      welcome_message?: string;
      system_instructions?: string;
      selected_model?: string;
      /** hex color, e.g. #2563eb */
      primary_color?: string;
      /** language code; empty = mirror the visitor */
      response_language?: string;
      widget_style?: string;
      strict_mode?: boolean;
      lead_capture_enabled?: boolean;
      allowed_domains?: string[];
      paused?: boolean;
      lead_fields?: string[];
      calendar_scheduling_enabled?: boolean;
      meeting_provider?: "calendly" | "cal_com" | null;
      meeting_url?: string | null;
      monthly_message_quota?: number;
    };
    response: {
      id: string;
      name: string;
      welcome_message: string;
      primary_color: string;
      selected_model: string;
      system_instructions: string;
      widget_style: string;
      response_language: string;
      strict_mode: boolean;
      lead_capture_enabled: boolean;
      created_at: string;
      updated_at: string;
      allowed_domains: string[];
      paused: boolean;
      lead_fields: string[];
      calendar_scheduling_enabled: boolean;
      meeting_provider: string | null;
      meeting_url: string | null;
      monthly_message_quota: number;
    };
  };
  dashboardCreateCatalogItem: {
    /** Add a catalog item */
    path: {
      bot_id: string;
    };
    query: never;
    body: {
      kind: "product" | "media";
      external_id?: string | null;
      name?: string;
      description?: string;
      price?: number | null;
      currency?: string | null;
      sku?: string | null;
      url?: string | null;
      image_url?: string | null;
      metadata?: Record<string, unknown>;
      title?: string;
      mime_type?: string | null;
    };
    response: {
      id: string;
      kind: "product" | "media";
      external_id: string | null;
      name: string | null;
      title: string | null;
      description: string | null;
      price: number | null;
      currency: string | null;
      sku: string | null;
      url: string | null;
      image_url: string | null;
      mime_type: string | null;
      metadata: Record<string, unknown>;
      created_at: string;
      updated_at: string | null;
    };
  };
  dashboardCreateKey: {
    /** Create an API key for a bot */
    path: never;
    query: never;
    body: {
      bot_id: string;
      name: string;
      scopes?: ("chat" | "read" | "write" | "admin")[];
      /** where the key may be used from; empty: anywhere */
      allowed_ips?: string[];
    };
    response: {
      id: string;
      name: string;
      prefix: string;
      scopes: string[];
      allowed_ips: string[];
      bot_id: string;
      created_at: string;
      /** the user the key acts for (it does no more than their dashboard tabs allow); null for a key made before makers were recorded, which acts for the whole account until rotated */
      created_by: string | null;
      /** the secret, shown only here */
      key: string;
    };
  };
  dashboardCreateWebhook: {
    /** Register a webhook */
    path: {
      bot_id: string;
    };
    query: never;
    body: {
      /** http(s) receiver address; no credentials, no private address */
      url: string;
      events: ("lead.created" | "message.user" | "message.assistant" | "session.started" | "session.ended")[];
    };
    response: {
      id: string;
      url: string;
      events: string[];
      created_at: string;
      /** parley_whsec_…, shown once */
      secret: string;
    };
  };
  dashboardDailyAnalytics: {
    /** Daily messages, sessions and leads */
    path: {
      bot_id: string;
    };
    query: {
      days?: number;
    };
    body: never;
    response: {
      days: number;
      series: {
        date: string;
        user_messages: number;
        bot_messages: number;
        sessions: number;
        leads: number;
      }[];
    };
  };
  dashboardDeleteBot: {
    /** Delete a bot */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      id: string;
    };
  };
  dashboardDeleteCatalogItem: {
    /** Delete a catalog item */
    path: {
      bot_id: string;
      item_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      id: string;
    };
  };
  dashboardDeleteInboxSession: {
    /** Delete a session */
    path: {
      bot_id: string;
      session_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      session_id: string;
    };
  };
  dashboardDeleteKnowledge: {
    /** Delete a knowledge source */
    path: {
      bot_id: string;
      source_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      deleted_id: string;
    };
  };
  dashboardDeleteProviderKey: {
    /** Remove the bot's key for a provider */
    path: {
      bot_id: string;
      provider: "openai" | "anthropic" | "google" | "mistral";
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      /** openai, anthropic, google or mistral */
      provider: "openai" | "anthropic" | "google" | "mistral";
    };
  };
  dashboardDeleteWebhook: {
    /** Delete a webhook */
    path: {
      bot_id: string;
      webhook_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      id: string;
    };
  };
  dashboardExportLeads: {
    /** Export a bot's leads as CSV */
    path: {
      bot_id: string;
    };
    query: {
      q?: string;
    };
    body: never;
    response: string;
  };
  dashboardGetBot: {
    /** Read a bot */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      id: string;
      name: string;
      welcome_message: string;
      primary_color: string;
      selected_model: string;
      system_instructions: string;
      widget_style: string;
      response_language: string;
      strict_mode: boolean;
      lead_capture_enabled: boolean;
      created_at: string;
      updated_at: string;
      allowed_domains: string[];
      paused: boolean;
      lead_fields: string[];
      calendar_scheduling_enabled: boolean;
      meeting_provider: string | null;
      meeting_url: string | null;
      monthly_message_quota: number;
    };
  };
  dashboardGetInboxSession: {
    /** Read a session with its messages */
    path: {
      bot_id: string;
      session_id: string;
    };
    query: never;
    body: never;
    response: {
      /** the caller's session_id */
      session_id: string;
      visitor_id: string | null;
      visitor_timezone: string;
      /** the object sent with the latest streamed message that had one */
      metadata: Record<string, unknown> | null;
      status: "active" | "ended";
      /** an operator holds the session: the bot does not answer it */
      taken_over: boolean;
      message_count: number;
      started_at: string;
      last_activity_at: string;
      ended_at: string | null;
      last_message: {
        role: "user" | "assistant";
        /** who wrote it: the visitor, the bot, or an operator from the inbox (role assistant) */
        author: "visitor" | "bot" | "operator";
        content: string;
        created_at: string;
      } | null;
      messages: {
        id: string;
        role: "user" | "assistant";
        /** who wrote it: the visitor, the bot, or an operator from the inbox (role assistant) */
        author: "visitor" | "bot" | "operator";
        content: string;
        feedback_rating: string | null;
        created_at: string;
      }[];
      /** the visitor's uploads, oldest first */
      attachments: {
        id: string;
        file_name: string;
        mime_type: string;
        size_bytes: number;
        /** a signed link to the file, as the upload answered it */
        file_url: string;
        created_at: string;
      }[];
    };
  };
  dashboardInboxEvents: {
    /** Follow a bot's live activity (Server-Sent Events) */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: string;
  };
  dashboardListBots: {
    /** List the account's bots */
    path: never;
    query: never;
    body: never;
    response: {
      bots: {
        id: string;
        name: string;
        welcome_message: string;
        primary_color: string;
        selected_model: string;
        system_instructions: string;
        widget_style: string;
        response_language: string;
        strict_mode: boolean;
        lead_capture_enabled: boolean;
        created_at: string;
        updated_at: string;
        allowed_domains: string[];
        paused: boolean;
        lead_fields: string[];
        calendar_scheduling_enabled: boolean;
        meeting_provider: string | null;
        meeting_url: string | null;
        monthly_message_quota: number;
      }[];
    };
  };
  dashboardListCatalogItems: {
    /** List a bot's catalog items */
    path: {
      bot_id: string;
    };
    query: {
      limit?: number;
      offset?: number;
    };
    body: never;
    response: {
      items: {
        id: string;
        kind: "product" | "media";
        external_id: string | null;
        name: string | null;
        title: string | null;
        description: string | null;
        price: number | null;
        currency: string | null;
        sku: string | null;
        url: string | null;
        image_url: string | null;
        mime_type: string | null;
        metadata: Record<string, unknown>;
        created_at: string;
        updated_at: string | null;
      }[];
      total: number;
      limit: number;
      offset: number;
    };
  };
  dashboardListInbox: {
    /** List a bot's sessions */
    path: {
      bot_id: string;
    };
    query: {
      status?: "active" | "ended";
      limit?: number;
      offset?: number;
    };
    body: never;
    response: {
      sessions: {
        /** the caller's session_id */
        session_id: string;
        visitor_id: string | null;
        visitor_timezone: string;
        /** the object sent with the latest streamed message that had one */
        metadata: Record<string, unknown> | null;
        status: "active" | "ended";
        /** an operator holds the session: the bot does not answer it */
        taken_over: boolean;
        message_count: number;
        started_at: string;
        last_activity_at: string;
        ended_at: string | null;
        last_message: {
          role: "user" | "assistant";
          /** who wrote it: the visitor, the bot, or an operator from the inbox (role assistant) */
          author: "visitor" | "bot" | "operator";
          content: string;
          created_at: string;
        } | null;
      }[];
      /** sessions matching the status filter */
      total: number;
      limit: number;
      offset: number;
    };
  };
  dashboardListKeys: {
    /** List a bot's API keys */
    path: never;
    query: {
      bot_id: string;
    };
    body: never;
    response: {
      keys: {
        id: string;
        name: string;
        prefix: string;
        scopes: string[];
        allowed_ips: string[];
        bot_id: string;
        created_at: string;
        /** the user the key acts for (it does no more than their dashboard tabs allow); null for a key made before makers were recorded, which acts for the whole account until rotated */
        created_by: string | null;
        last_used_at: string | null;
        revoked_at: string | null;
      }[];
    };
  };
  dashboardListKnowledge: {
    /** List a bot's knowledge sources */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      sources: {
        id: string;
        bot_id: string;
        type: string;
        name: string;
        title: string;
        url: string | null;
        status: string;
        status_detail: string | null;
        char_count: number;
        content_preview: string;
        crawl_schedule: string | null;
        next_crawl_at: string | null;
        last_crawled_at: string | null;
        created_at: string;
      }[];
      total: number;
    };
  };
  dashboardListLeads: {
    /** Search a bot's leads */
    path: {
      bot_id: string;
    };
    query: {
      limit?: number;
      offset?: number;
      q?: string;
    };
    body: never;
    response: {
      leads: {
        id: string;
        bot_id: string;
        session_id: string;
        /** '' until given */
        name: string;
        /** '' until given */
        email: string;
        /** E.164, '' until given */
        phone: string;
        /** the bot's custom lead fields */
        extra: Record<string, string>;
        created_at: string;
      }[];
      total: number;
      limit: number;
      offset: number;
    };
  };
  dashboardListModels: {
    /** The models a bot can answer with */
    path: never;
    query: {
      bot_id?: string;
    };
    body: never;
    response: {
      /** the model new bots get */
      default_model: string;
      models: {
        /** the value of `selected_model` */
        id: string;
        provider: "local" | "openai" | "anthropic" | "google" | "mistral" | "openai-compatible";
        /** where the key comes from: none needed (parley-local), the deployment's shared pool, or the bot's own key */
        key: "none" | "pool" | "bot";
      }[];
    };
  };
  dashboardListProviderKeys: {
    /** Which providers have a key of their own */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      providers: {
        /** openai, anthropic, google or mistral */
        provider: "openai" | "anthropic" | "google" | "mistral";
        created_at: string;
      }[];
    };
  };
  dashboardListWebhookDeliveries: {
    /** List a webhook's deliveries */
    path: {
      bot_id: string;
      webhook_id: string;
    };
    query: {
      limit?: number;
      offset?: number;
    };
    body: never;
    response: {
      deliveries: {
        /** also the X-Service-Delivery header of every attempt */
        id: string;
        event: string;
        status: "pending" | "delivered" | "dropped";
        attempts: number;
        next_attempt_at: string | null;
        last_status_code: number | null;
        last_error: string | null;
        created_at: string;
        delivered_at: string | null;
        /** the exact JSON body every attempt sends */
        body: string;
        /** every attempt of the last 30 days, oldest first */
        attempt_log: {
          attempt: number;
          status_code: number | null;
          latency_ms: number;
          error: string | null;
          response_excerpt: string | null;
          created_at: string;
        }[];
      }[];
      total: number;
      limit: number;
      offset: number;
    };
  };
  dashboardListWebhooks: {
    /** List webhooks */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      webhooks: {
        id: string;
        url: string;
        events: string[];
        created_at: string;
      }[];
    };
  };
  dashboardPauseBot: {
    /** Pause the bot (human takeover) */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      bot_id: string;
      paused: boolean;
    };
  };
  dashboardPutProviderKey: {
    /** Store the bot's key for a provider */
    path: {
      bot_id: string;
      provider: "openai" | "anthropic" | "google" | "mistral";
    };
    query: never;
    body: {
      /** write-only */
      api_key: string;
    };
    response: {
      /** openai, anthropic, google or mistral */
      provider: "openai" | "anthropic" | "google" | "mistral";
      created_at: string;
    };
  };
  dashboardRedeliverWebhook: {
    /** Send a delivery again */
    path: {
      bot_id: string;
      webhook_id: string;
      delivery_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      delivery_id: string;
    };
  };
  dashboardReleaseSession: {
    /** Hand a session back to the bot */
    path: {
      bot_id: string;
      session_id: string;
    };
    query: never;
    body: never;
    response: {
      /** the caller's session_id */
      session_id: string;
      visitor_id: string | null;
      visitor_timezone: string;
      /** the object sent with the latest streamed message that had one */
      metadata: Record<string, unknown> | null;
      status: "active" | "ended";
      /** an operator holds the session: the bot does not answer it */
      taken_over: boolean;
      message_count: number;
      started_at: string;
      last_activity_at: string;
      ended_at: string | null;
      last_message: {
        role: "user" | "assistant";
        /** who wrote it: the visitor, the bot, or an operator from the inbox (role assistant) */
        author: "visitor" | "bot" | "operator";
        content: string;
        created_at: string;
      } | null;
    };
  };
  dashboardResumeBot: {
    /** Resume the bot */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      bot_id: string;
      paused: boolean;
    };
  };
  dashboardRevokeKey: {
    /** Revoke an API key */
    path: {
      id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      id: string;
    };
  };
  dashboardRotateCatalogSecret: {
    /** Create or rotate the catalog signing secret */
    path: {
      bot_id: string;
    };
    query: never;
    body: never;
    response: {
      secret: string;
      delivery_url: string;
      created_at: string;
    };
  };
  dashboardSearchKnowledge: {
    /** What the bot would find for a question */
    path: {
      bot_id: string;
    };
    query: {
      q: string;
      limit?: number;
    };
    body: never;
    response: {
      query: string;
      passages: {
        source_id: string;
        source_name: string;
        source_url: string | null;
        /** the passage's heading path inside its source, '' when none */
        heading: string;
        text: string;
        /** fused rank score: higher is better, comparable only within one answer */
        score: number;
      }[];
      /** what a parley-local bot would reply to `q` as a visitor's first message; null for a bot answering with a provider model, whose reply only the model decides */
      reply: {
        kind: "answer" | "refusal" | "small_talk";
        text: string;
      } | null;
    };
  };
  dashboardSendOperatorMessage: {
    /** Reply to the visitor as an operator */
    path: {
      bot_id: string;
      session_id: string;
    };
    query: never;
    body: {
      /** control characters are stripped first */
      content: string;
    };
    response: {
      id: string;
      role: "user" | "assistant";
      /** who wrote it: the visitor, the bot, or an operator from the inbox (role assistant) */
      author: "visitor" | "bot" | "operator";
      content: string;
      feedback_rating: string | null;
      created_at: string;
    };
  };
  dashboardTakeOverSession: {
    /** Take a session over */
    path: {
      bot_id: string;
      session_id: string;
    };
    query: never;
    body: never;
    response: {
      /** the caller's session_id */
      session_id: string;
      visitor_id: string | null;
      visitor_timezone: string;
      /** the object sent with the latest streamed message that had one */
      metadata: Record<string, unknown> | null;
      status: "active" | "ended";
      /** an operator holds the session: the bot does not answer it */
      taken_over: boolean;
      message_count: number;
      started_at: string;
      last_activity_at: string;
      ended_at: string | null;
      last_message: {
        role: "user" | "assistant";
        /** who wrote it: the visitor, the bot, or an operator from the inbox (role assistant) */
        author: "visitor" | "bot" | "operator";
        content: string;
        created_at: string;
      } | null;
    };
  };
  dashboardTestWebhook: {
    /** Send a test event */
    path: {
      bot_id: string;
      webhook_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      delivery_id: string;
      event: string;
      status_code: number | null;
      latency_ms: number;
      error: string | null;
    };
  };
  dashboardUnansweredQuestions: {
    /** List the questions the bot could not answer */
    path: {
      bot_id: string;
    };
    query: {
      days?: number;
      limit?: number;
    };
    body: never;
    response: {
      days: number;
      since: string;
      questions: {
        question: string;
        count: number;
        last_asked_at: string;
      }[];
    };
  };
  dashboardUpdateBot: {
    /** Change a bot's settings */
    path: {
      bot_id: string;
    };
    query: never;
    body: {
      name?: string;
      welcome_message?: string;
      system_instructions?: string;
      selected_model?: string;
      /** hex color, e.g. #2563eb */
      primary_color?: string;
      /** language code; empty = mirror the visitor */
      response_language?: string;
      widget_style?: string;
      strict_mode?: boolean;
      lead_capture_enabled?: boolean;
      allowed_domains?: string[];
      paused?: boolean;
      lead_fields?: string[];
      calendar_scheduling_enabled?: boolean;
      meeting_provider?: "calendly" | "cal_com" | null;
      meeting_url?: string | null;
      monthly_message_quota?: number;
    };
    response: {
      id: string;
      name: string;
      welcome_message: string;
      primary_color: string;
      selected_model: string;
      system_instructions: string;
      widget_style: string;
      response_language: string;
      strict_mode: boolean;
      lead_capture_enabled: boolean;
      created_at: string;
      updated_at: string;
      allowed_domains: string[];
      paused: boolean;
      lead_fields: string[];
      calendar_scheduling_enabled: boolean;
      meeting_provider: string | null;
      meeting_url: string | null;
      monthly_message_quota: number;
    };
  };
  dashboardUpdateCatalogItem: {
    /** Change a catalog item */
    path: {
      bot_id: string;
      item_id: string;
    };
    query: never;
    body: {
      external_id?: string | null;
      name?: string;
      description?: string;
      price?: number | null;
      currency?: string | null;
      sku?: string | null;
      url?: string | null;
      image_url?: string | null;
      metadata?: Record<string, unknown>;
      title?: string;
      mime_type?: string | null;
    };
    response: {
      id: string;
      kind: "product" | "media";
      external_id: string | null;
      name: string | null;
      title: string | null;
      description: string | null;
      price: number | null;
      currency: string | null;
      sku: string | null;
      url: string | null;
      image_url: string | null;
      mime_type: string | null;
      metadata: Record<string, unknown>;
      created_at: string;
      updated_at: string | null;
    };
  };
  dashboardUpdateKey: {
    /** Change a key's name, scopes or allowed IPs */
    path: {
      id: string;
    };
    query: never;
    body: {
      name?: string;
      scopes?: ("chat" | "read" | "write" | "admin")[];
      /** where the key may be used from; empty: anywhere */
      allowed_ips?: string[];
    };
    response: {
      id: string;
      name: string;
      prefix: string;
      scopes: string[];
      allowed_ips: string[];
      bot_id: string;
      created_at: string;
      /** the user the key acts for (it does no more than their dashboard tabs allow); null for a key made before makers were recorded, which acts for the whole account until rotated */
      created_by: string | null;
      last_used_at: string | null;
      revoked_at: string | null;
    };
  };
  dashboardUpdateKnowledge: {
    /** Set a web page source's crawl schedule */
    path: {
      bot_id: string;
      source_id: string;
    };
    query: never;
    body: {
      crawl_schedule: "hourly" | "daily" | "weekly" | null;
    };
    response: {
      id: string;
      bot_id: string;
      type: string;
      name: string;
      title: string;
      url: string | null;
      status: string;
      status_detail: string | null;
      char_count: number;
      content_preview: string;
      crawl_schedule: string | null;
      next_crawl_at: string | null;
      last_crawled_at: string | null;
      created_at: string;
    };
  };
  dashboardUpdateWebhook: {
    /** Change a webhook's URL or events */
    path: {
      bot_id: string;
      webhook_id: string;
    };
    query: never;
    body: {
      /** http(s) receiver address; no credentials, no private address */
      url?: string;
      events?: ("lead.created" | "message.user" | "message.assistant" | "session.started" | "session.ended")[];
    };
    response: {
      id: string;
      url: string;
      events: string[];
      created_at: string;
    };
  };
  dashboardUploadKnowledgeFile: {
    /** Upload a document as a knowledge source */
    path: {
      bot_id: string;
    };
    query: never;
    body: FormData;
    response: {
      success: boolean;
      source: {
        id: string;
        bot_id: string;
        type: string;
        name: string;
        title: string;
        url: string | null;
        status: string;
        status_detail: string | null;
        char_count: number;
        content_preview: string;
        crawl_schedule: string | null;
        next_crawl_at: string | null;
        last_crawled_at: string | null;
        created_at: string;
      };
    };
  };
  dashboardUsage: {
    /** The account's messages this month against each bot's allowance */
    path: never;
    query: never;
    body: never;
    response: {
      /** the calendar month counted (UTC), YYYY-MM */
      month: string;
      /** visitors' messages to any of the account's bots this month */
      messages_used: number;
      resets_at: string;
      bots: {
        id: string;
        name: string;
        /** the bot stops answering once the account has used this many messages this month */
        monthly_message_quota: number;
        /** messages this bot may still receive this month */
        remaining: number;
      }[];
    };
  };
  getScorecard: {
    /** getScorecard */
    path: never;
    query: {
      bot_id: string;
      days?: number;
    };
    body: never;
    response: {
      bot_id: string;
      period_days: number;
      overall_grade: "A+" | "A" | "A-" | "B+" | "B" | "B-" | "C+" | "C" | "D" | "F";
      composite_score: number;
      status: string;
      audit_timestamp: string;
      pillars: {
        conversion: {
          score: number;
          weight: string;
        };
        engagement: {
          score: number;
          weight: string;
        };
        accuracy: {
          score: number;
          weight: string;
        };
        reliability: {
          score: number;
          weight: string;
        };
        satisfaction: {
          score: number;
          weight: string;
        };
      };
      recommendations: string[];
      metrics: {
        sessions: number;
        user_messages: number;
        multi_turn_sessions: number;
        leads: number;
        bot_answers: number;
        unanswered_answers: number;
        failed_answers: number;
        slow_answers: number;
        feedback_up: number;
        feedback_down: number;
      };
    };
  };
  inviteMember: {
    /** Invite a member */
    path: never;
    query: never;
    body: {
      email: string;
      role: "admin" | "agent";
      tabs?: ("inbox" | "knowledge" | "customizer" | "settings" | "voice_agent" | "team" | "billing" | "byok" | "webhooks")[];
    };
    response: {
      id: string;
      email: string;
      role: string;
      tabs: string[];
      token: string;
      expires_at: string;
    };
  };
  listInvitations: {
    /** List the account's pending invitations */
    path: never;
    query: never;
    body: never;
    response: {
      invitations: {
        id: string;
        email: string;
        role: string;
        tabs: string[];
        created_at: string;
        expires_at: string;
      }[];
    };
  };
  listMembers: {
    /** List the account's members */
    path: never;
    query: never;
    body: never;
    response: {
      members: {
        user_id: string;
        email: string;
        name: string;
        role: string;
        tabs: string[];
        created_at: string;
      }[];
    };
  };
  login: {
    /** Log in */
    path: never;
    query: never;
    body: {
      email: string;
      password: string;
    };
    response: {
      /** parley_ds_…, also set as the parley_session cookie */
      token: string;
      user: {
        id: string;
        email: string;
        name: string;
      };
      account: {
        id: string;
        name: string;
      };
    };
  };
  logout: {
    /** Log out */
    path: never;
    query: never;
    body: never;
    response: null;
  };
  me: {
    /** Who is signed in */
    path: never;
    query: never;
    body: never;
    response: {
      user: {
        id: string;
        email: string;
        name: string;
      };
      account: {
        id: string;
        name: string;
      };
      role: "owner" | "admin" | "agent";
      tabs: ("inbox" | "knowledge" | "customizer" | "settings" | "voice_agent" | "team" | "billing" | "byok" | "webhooks")[];
    };
  };
  removeMember: {
    /** Remove a member */
    path: {
      user_id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
    };
  };
  revokeInvitation: {
    /** Revoke a pending invitation */
    path: {
      id: string;
    };
    query: never;
    body: never;
    response: {
      success: boolean;
      id: string;
    };
  };
  signup: {
    /** Sign up */
    path: never;
    query: never;
    body: {
      email: string;
      password: string;
      name?: string;
      account_name?: string;
      /** parley_inv_…: joins the inviting account */
      invite_token?: string;
    };
    response: {
      /** parley_ds_…, also set as the parley_session cookie */
      token: string;
      user: {
        id: string;
        email: string;
        name: string;
      };
      account: {
        id: string;
        name: string;
      };
    };
  };
  signupStatus: {
    /** Whether sign-up is open */
    path: never;
    query: never;
    body: never;
    response: {
      /** a sign-up without an invitation would be accepted now */
      signup_open: boolean;
      /** PARLEY_SIGNUP */
      mode: "open" | "first" | "closed";
    };
  };
  updateMember: {
    /** Change a member's role or tabs */
    path: {
      user_id: string;
    };
    query: never;
    body: {
      role?: "admin" | "agent";
      tabs?: ("inbox" | "knowledge" | "customizer" | "settings" | "voice_agent" | "team" | "billing" | "byok" | "webhooks")[];
    };
    response: {
      user_id: string;
      email: string;
      name: string;
      role: string;
      tabs: string[];
      created_at: string;
    };
  };
  updateProfile: {
    /** Change your name or password */
    path: never;
    query: never;
    body: {
      name?: string;
      /** required with `new_password` */
      current_password?: string;
      new_password?: string;
    };
    response: {
      user: {
        id: string;
        email: string;
        name: string;
      };
      account: {
        id: string;
        name: string;
      };
      role: "owner" | "admin" | "agent";
      tabs: ("inbox" | "knowledge" | "customizer" | "settings" | "voice_agent" | "team" | "billing" | "byok" | "webhooks")[];
    };
  };
}

/** Method and path template of each operation. */
export const OPERATIONS: { readonly [K in keyof Operations]: readonly [method: string, path: string] } = {
  dashboardAddKnowledge: ["POST", "/api/dashboard/bots/{bot_id}/knowledge"],
  dashboardCreateBot: ["POST", "/api/dashboard/bots"],
  dashboardCreateCatalogItem: ["POST", "/api/dashboard/bots/{bot_id}/catalog/items"],
  dashboardCreateKey: ["POST", "/api/keys"],
  dashboardCreateWebhook: ["POST", "/api/dashboard/bots/{bot_id}/webhooks"],
  dashboardDailyAnalytics: ["GET", "/api/dashboard/bots/{bot_id}/analytics/daily"],
  dashboardDeleteBot: ["DELETE", "/api/dashboard/bots/{bot_id}"],
  dashboardDeleteCatalogItem: ["DELETE", "/api/dashboard/bots/{bot_id}/catalog/items/{item_id}"],
  dashboardDeleteInboxSession: ["DELETE", "/api/dashboard/bots/{bot_id}/inbox/{session_id}"],
  dashboardDeleteKnowledge: ["DELETE", "/api/dashboard/bots/{bot_id}/knowledge/{source_id}"],
  dashboardDeleteProviderKey: ["DELETE", "/api/dashboard/bots/{bot_id}/provider-keys/{provider}"],
  dashboardDeleteWebhook: ["DELETE", "/api/dashboard/bots/{bot_id}/webhooks/{webhook_id}"],
  dashboardExportLeads: ["GET", "/api/dashboard/bots/{bot_id}/leads.csv"],
  dashboardGetBot: ["GET", "/api/dashboard/bots/{bot_id}"],
  dashboardGetInboxSession: ["GET", "/api/dashboard/bots/{bot_id}/inbox/{session_id}"],
  dashboardInboxEvents: ["GET", "/api/dashboard/bots/{bot_id}/inbox-events"],
  dashboardListBots: ["GET", "/api/dashboard/bots"],
  dashboardListCatalogItems: ["GET", "/api/dashboard/bots/{bot_id}/catalog/items"],
  dashboardListInbox: ["GET", "/api/dashboard/bots/{bot_id}/inbox"],
  dashboardListKeys: ["GET", "/api/keys"],
  dashboardListKnowledge: ["GET", "/api/dashboard/bots/{bot_id}/knowledge"],
  dashboardListLeads: ["GET", "/api/dashboard/bots/{bot_id}/leads"],
  dashboardListModels: ["GET", "/api/dashboard/models"],
  dashboardListProviderKeys: ["GET", "/api/dashboard/bots/{bot_id}/provider-keys"],
  dashboardListWebhookDeliveries: ["GET", "/api/dashboard/bots/{bot_id}/webhooks/{webhook_id}/deliveries"],
  dashboardListWebhooks: ["GET", "/api/dashboard/bots/{bot_id}/webhooks"],
  dashboardPauseBot: ["POST", "/api/dashboard/bots/{bot_id}/pause"],
  dashboardPutProviderKey: ["PUT", "/api/dashboard/bots/{bot_id}/provider-keys/{provider}"],
  dashboardRedeliverWebhook: ["POST", "/api/dashboard/bots/{bot_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"],
  dashboardReleaseSession: ["POST", "/api/dashboard/bots/{bot_id}/inbox/{session_id}/release"],
  dashboardResumeBot: ["POST", "/api/dashboard/bots/{bot_id}/resume"],
  dashboardRevokeKey: ["DELETE", "/api/keys/{id}"],
  dashboardRotateCatalogSecret: ["POST", "/api/dashboard/bots/{bot_id}/catalog/secret"],
  dashboardSearchKnowledge: ["GET", "/api/dashboard/bots/{bot_id}/knowledge/search"],
  dashboardSendOperatorMessage: ["POST", "/api/dashboard/bots/{bot_id}/inbox/{session_id}/messages"],
  dashboardTakeOverSession: ["POST", "/api/dashboard/bots/{bot_id}/inbox/{session_id}/takeover"],
  dashboardTestWebhook: ["POST", "/api/dashboard/bots/{bot_id}/webhooks/{webhook_id}/test"],
  dashboardUnansweredQuestions: ["GET", "/api/dashboard/bots/{bot_id}/analytics/unanswered"],
  dashboardUpdateBot: ["PATCH", "/api/dashboard/bots/{bot_id}"],
  dashboardUpdateCatalogItem: ["PATCH", "/api/dashboard/bots/{bot_id}/catalog/items/{item_id}"],
  dashboardUpdateKey: ["PATCH", "/api/keys/{id}"],
  dashboardUpdateKnowledge: ["PATCH", "/api/dashboard/bots/{bot_id}/knowledge/{source_id}"],
  dashboardUpdateWebhook: ["PATCH", "/api/dashboard/bots/{bot_id}/webhooks/{webhook_id}"],
  dashboardUploadKnowledgeFile: ["POST", "/api/dashboard/bots/{bot_id}/knowledge/files"],
  dashboardUsage: ["GET", "/api/dashboard/usage"],
  getScorecard: ["GET", "/api/admin/analytics/scorecard"],
  inviteMember: ["POST", "/api/dashboard/invitations"],
  listInvitations: ["GET", "/api/dashboard/invitations"],
  listMembers: ["GET", "/api/dashboard/members"],
  login: ["POST", "/api/auth/login"],
  logout: ["POST", "/api/auth/logout"],
  me: ["GET", "/api/auth/me"],
  removeMember: ["DELETE", "/api/dashboard/members/{user_id}"],
  revokeInvitation: ["DELETE", "/api/dashboard/invitations/{id}"],
  signup: ["POST", "/api/auth/signup"],
  signupStatus: ["GET", "/api/auth/signup-status"],
  updateMember: ["PATCH", "/api/dashboard/members/{user_id}"],
  updateProfile: ["PATCH", "/api/auth/me"],
};
