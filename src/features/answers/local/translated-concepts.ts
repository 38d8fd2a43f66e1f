/**
 * Help-desk concepts in Spanish, French, German, Portuguese and Italian, each folded onto the
 * English concept's term (`text.ts`): a Spanish "tarifa" matches a Spanish "precio", both borrow
 * the English vectors of "cost", and full-text search adds "cost" to them, so that a question in
 * one of these languages also finds an English help centre. Words that are also English words of
 * another meaning are left out (German "kind" and "alter", Italian "cane").
 */
export const TRANSLATED_CONCEPTS: [englishHead: string, byLanguage: Partial<Record<'es' | 'fr' | 'de' | 'pt' | 'it', string>>][] = [
  ['refund', { es: 'reembolso reembolsos reembolsar reintegro', fr: 'remboursement remboursements rembourser remboursé remboursée', de: 'rückerstattung erstattung erstatten', pt: 'reembolso reembolsos reembolsar estorno', it: 'rimborso rimborsi rimborsare rimborsato' }],
  ['cancel', { es: 'cancelar cancelación cancelaciones anular anulación', fr: 'annuler annulation annulations résilier résiliation', de: 'stornieren stornierung storno kündigen kündigung absagen', pt: 'cancelar cancelamento cancelamentos anular', it: 'annullare annullamento cancellare cancellazione disdetta disdire' }],
  ['ship', { es: 'envío envíos envio envios enviar entrega entregas', fr: 'livraison livraisons livrer expédition expédier envoi', de: 'versand lieferung liefern zustellung versenden', pt: 'envio envios entrega entregas entregar enviar', it: 'spedizione spedizioni consegna consegne consegnare spedire' }],
  ['cost', { es: 'precio precios coste costes costo costos tarifa tarifas cuesta cuestan', fr: 'prix tarif tarifs coût coûts coûte coûtent frais', de: 'preis preise kosten kostet gebühr gebühren', pt: 'preço preços preco precos custo custos custa custam', it: 'prezzo prezzi costo costi costano tariffa tariffe' }],
  ['warranty', { es: 'garantía garantia', fr: 'garantie', de: 'garantie gewährleistung', pt: 'garantia', it: 'garanzia' }],
  ['password', { es: 'contraseña contraseñas', de: 'passwort kennwort', pt: 'senha senhas' }],
  ['phone', { es: 'teléfono telefono llamar llamada', fr: 'téléphone telephone appeler appel', de: 'telefon anrufen anruf', pt: 'telefone ligar', it: 'telefono chiamare chiamata' }],
  ['discount', { es: 'descuento descuentos rebaja rebajas promoción', fr: 'réduction réductions remise rabais promotion', de: 'rabatt rabatte ermäßigung nachlass', pt: 'desconto descontos promoção', it: 'sconto sconti riduzione promozione' }],
  ['damage', { es: 'dañado dañada daño roto', fr: 'endommagé endommagée cassé cassée abîmé', de: 'beschädigt schaden kaputt', pt: 'danificado danificada estragado', it: 'danneggiato danneggiata danno rotto rotta' }],
  ['free', { es: 'gratis gratuito gratuita gratuitos', fr: 'gratuit gratuite gratuits gratuitement offert', de: 'kostenlos gratis umsonst kostenfrei kostenlose kostenlosen kostenloser', pt: 'grátis gratis gratuito gratuita', it: 'gratis gratuito gratuita gratuiti' }],
  ['year', { es: 'año años anual', fr: 'année années annuel', de: 'jahr jahre jahren jährlich', pt: 'ano anos anual', it: 'anno anni annuale' }],
  ['month', { es: 'mes meses mensual', fr: 'mois mensuel', de: 'monat monate monaten monatlich', pt: 'mês meses mensal', it: 'mese mesi mensile' }],
  ['fix', { es: 'reparar reparación reparaciones arreglar', fr: 'réparer réparation réparations', de: 'reparatur reparaturen reparieren', pt: 'reparar reparação conserto consertar', it: 'riparare riparazione riparazioni' }],
  ['receipt', { es: 'recibo recibos', fr: 'reçu reçus', de: 'quittung quittungen beleg belege kassenbon', pt: 'recibo recibos', it: 'ricevuta ricevute scontrino scontrini' }],
  ['invoice', { es: 'factura facturas', fr: 'facture factures', de: 'rechnung rechnungen', pt: 'fatura faturas', it: 'fattura fatture' }],
  ['subscription', { es: 'suscripción abono membresía', fr: 'abonnement adhésion', de: 'abo abonnement mitgliedschaft', pt: 'assinatura subscrição', it: 'abbonamento' }],
  ['home', { es: 'casa domicilio', fr: 'domicile maison', de: 'zuhause', pt: 'casa domicílio', it: 'casa domicilio' }],
  ['minimum', { es: 'mínimo mínima', de: 'mindestens', pt: 'mínimo mínima', it: 'minimo minima' }],
  ['maximum', { es: 'máximo máxima', de: 'höchstens maximal', pt: 'máximo máxima', it: 'massimo massima' }],
  ['exchange', { es: 'cambio cambiar', fr: 'échange échanger', de: 'umtausch umtauschen', pt: 'troca trocar', it: 'cambio cambiare' }],
  ['open', { es: 'abierto abierta abiertos abren abrir apertura', fr: 'ouvert ouverte ouverts ouvrez ouverture', de: 'geöffnet offen öffnen öffnungszeiten', pt: 'aberto aberta abertos abrem abrir abertura', it: 'aperto aperta aperti aprite apertura' }],
  ['book', { es: 'reserva reservas reservar', fr: 'réservation réservations réserver', de: 'buchung buchen reservierung reservieren', pt: 'reserva reservas reservar', it: 'prenotazione prenotazioni prenotare' }],
  ['pay', { es: 'pagar pago pagos', fr: 'payer paiement paiements', de: 'zahlen bezahlen zahlung', pt: 'pagar pagamento pagamentos', it: 'pagare pagamento pagamenti' }],
  ['pet', { es: 'perro perros mascota mascotas', fr: 'chien chiens animal animaux', de: 'hund hunde haustier haustiere', pt: 'cão cães cachorro animal animais', it: 'cani animale animali' }],
  ['child', { es: 'niño niños niña niñas', fr: 'enfant enfants', de: 'kinder', pt: 'criança crianças', it: 'bambino bambini bambina bambine' }],
  ['park', { es: 'aparcamiento aparcar', fr: 'stationnement garer', de: 'parkplatz parkplätze parken', pt: 'estacionamento estacionar', it: 'parcheggio parcheggiare' }],
  ['appointment', { es: 'cita citas', de: 'termin termine', it: 'appuntamento appuntamenti' }],
  ['age', { es: 'edad', fr: 'âge', pt: 'idade', it: 'età' }],
  ['trial', { es: 'prueba', fr: 'essai', de: 'testphase testversion probezeit probeabo', pt: 'teste avaliação', it: 'prova' }],
  ['account', { es: 'cuenta cuentas', fr: 'compte comptes', de: 'konto konten benutzerkonto', pt: 'conta contas', it: 'conto' }],
  ['order', { es: 'pedido pedidos', fr: 'commande commandes commander', de: 'bestellung bestellungen bestellen', pt: 'pedido pedidos', it: 'ordine ordini ordinare' }],
  ['return', { es: 'devolución devoluciones devolver', fr: 'retour retours retourner', de: 'rücksendung rückgabe zurückschicken zurückgeben retoure', pt: 'devolução devoluções devolver', it: 'reso resi restituire restituzione' }],
  ['delete', { es: 'eliminar borrar', fr: 'supprimer suppression', de: 'löschen löschung', pt: 'excluir apagar', it: 'eliminare' }],
  ['support', { es: 'soporte asistencia', fr: 'assistance', de: 'kundendienst kundenservice', pt: 'suporte atendimento', it: 'assistenza supporto' }],
  ['card', { es: 'tarjeta tarjetas', fr: 'carte cartes', de: 'karte karten kreditkarte', pt: 'cartão cartões', it: 'carta carte' }],
  ['store', { es: 'tienda tiendas', fr: 'magasin magasins', de: 'laden geschäft filiale', pt: 'loja lojas', it: 'negozio negozi' }],
  ['closed', { es: 'cerrado cerrada cerrados', fr: 'fermé fermée fermés', de: 'geschlossen', pt: 'fechado fechada fechados', it: 'chiuso chiusa chiusi' }],
  ['data', { es: 'datos', fr: 'données', de: 'daten', pt: 'dados', it: 'dati' }],
  ['export', { es: 'exportar', fr: 'exporter exportation', de: 'exportieren', pt: 'exportar', it: 'esportare' }],
  ['user', { es: 'usuario usuarios', fr: 'utilisateur utilisateurs', de: 'benutzer nutzer', pt: 'usuário usuários utilizador', it: 'utente utenti' }],
  ['team', { es: 'equipo', fr: 'équipe', pt: 'equipe equipa', it: 'squadra' }],
  ['authentication', { es: 'autenticación verificación', fr: 'authentification', de: 'authentifizierung', pt: 'autenticação verificação', it: 'autenticazione verifica' }],
  ['security', { es: 'seguridad', fr: 'sécurité', de: 'sicherheit', pt: 'segurança', it: 'sicurezza' }],
  ['tax', { es: 'impuesto impuestos', fr: 'taxe taxes tva', de: 'steuer steuern mehrwertsteuer mwst', pt: 'imposto impostos', it: 'imposta imposte tasse' }],
  ['address', { es: 'dirección', fr: 'adresse', de: 'adresse anschrift', pt: 'endereço', it: 'indirizzo' }],
  ['contact', { es: 'contacto contactar', fr: 'contacter', de: 'kontakt kontaktieren', pt: 'contato contatar contacto', it: 'contatto contattare' }],
  ['login', { es: 'acceder acceso', fr: 'connexion connecter', de: 'anmelden anmeldung einloggen', pt: 'entrar', it: 'accedere accesso' }],
  ['email', { es: 'correo', fr: 'courriel', de: 'e-mail', pt: 'e-mail', it: 'e-mail' }],
  ['student', { es: 'estudiante estudiantes', fr: 'étudiant étudiants étudiante', de: 'studenten studierende', pt: 'estudante estudantes', it: 'studente studenti' }],
  ['gift', { es: 'regalo regalos', fr: 'cadeau cadeaux', de: 'geschenk geschenke gutschein', pt: 'presente presentes', it: 'regalo regali' }],
  ['size', { es: 'talla tallas tamaño', fr: 'taille tailles', de: 'größe größen', pt: 'tamanho tamanhos', it: 'taglia taglie' }],
];

/**
 * Translated words that an English stemmer folds onto a common English word's stem ("commande" onto
 * "command", "termin" onto "terminate", "carte" onto "cart"): they fold onto their concept only in
 * their own language's stemming, or English text would change meaning. Every translated word whose
 * English stem is the stem of one of the 20,000 most frequent English words (other than its own
 * concept's) is here; a test keeps the list complete.
 */
export const ENGLISH_LOOKALIKES = new Set(
  `
  animal anni annuale annulation annulations annuler appel appeler assistance carte cartes casa chien
  chiens commande commander commandes connecter envoi equipe essai frais laden massimo maximal mes
  mois ordine preis presente presentes prix promotion suppression tariffe tasse telephone termin
  termine teste`.trim().split(/\s+/),
);
