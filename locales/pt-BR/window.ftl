# Ask First: as palavras da janela, em português do Brasil.
# O formato e como acrescentar um texto: veja o começo de locales/en/window.ftl (a referência).

## The top of the window

app-tagline = Seu assistente pergunta antes de mudar qualquer coisa.
app-conversations = Conversas
app-settings = Configurações
app-refuse-all = Não me pergunte agora: recuse tudo o que precisa da minha permissão
app-refuse-all-tip = Até você desmarcar isto, o assistente só pode fazer o que não precisa da sua permissão.

## Quit

quit = Sair
quit-failed = O Ask First não conseguiu fechar a janela. Tente o "Sair" da bandeja, ou encerre a sessão do computador.
quit-confirm = Sair do Ask First agora? Nada do que espera a sua permissão é feito; a tarefa para aqui e continua de onde parou na próxima vez que você abrir o Ask First (ele pergunta de novo então).
quit-keep-open = Manter aberto
quit-close-kept = Esta área de trabalho não tem ícones na bandeja, então fechar a janela não fecha o Ask First: ela foi minimizada e ele continua rodando, para ainda poder perguntar a você antes de qualquer coisa arriscada. Para fechá-lo de vez, clique em Sair.
quit-ok = OK

## Banners at the top of the cards

banner-needs-ok = O Ask First precisa da sua permissão ({ $count } esperando):
banner-settings-mistake = Seu arquivo de configurações tem um erro
banner-settings-mistake-body = O Ask First não pode usá-lo até ele ser corrigido ou apagado: o que você definiu nele (quem responde, servidores MCP) não está valendo, uma tarefa que precisa dele para com esta mensagem, e as Configurações não vão gravar por cima do arquivo. Este aviso some quando o arquivo puder ser lido.
banner-cannot-save = O Ask First não consegue salvar agora
banner-cannot-save-body = O histórico não pode ser gravado, então, por segurança, ele recusa toda ação que precisa da sua permissão até isso ser resolvido. Libere um pouco de espaço no disco, ou verifique se o Ask First pode gravar na pasta de dados dele; ele percebe sozinho quando salvar voltar a funcionar.

## The task box and the run's status

status-ready = Pronto
status-waiting = Esperando a sua permissão
status-working = Trabalhando…
status-retrying-busy = O serviço de IA está ocupado: nova tentativa em { $seconds } s (tentativa { $next } de { $tries })
status-retrying-service_trouble = O serviço de IA teve um problema: nova tentativa em { $seconds } s (tentativa { $next } de { $tries })
status-retrying-unreachable = O serviço de IA não pode ser alcançado: nova tentativa em { $seconds } s (tentativa { $next } de { $tries })
status-done = Concluído
status-failed = Parou por causa de um problema
status-stopped = Parado
status-show-waiting = Mostrar o primeiro pedido que espera a sua permissão
composer-stop = Parar
composer-placeholder = O que o assistente deve fazer? (Enter começa; Shift+Enter para uma nova linha)
composer-label = Tarefa para o assistente (Enter começa, Shift+Enter adiciona uma nova linha)
composer-start = Começar

## The approval cards

approvals-heading = Esperando a sua permissão
card-eyebrow = O assistente quer
card-resumed = Perguntado de novo: o Ask First foi fechado enquanto isto esperava sua resposta. Nada disto foi feito.
risk-low = Risco baixo
risk-medium = Risco médio
risk-high = Risco alto
card-effects = O que isto vai fazer
card-change = O que vai mudar (verde é acrescentado, vermelho é removido)
card-exact-details = Detalhes exatos que o assistente enviou
card-tool-name = A ferramenta:
card-sending = Enviando a sua resposta…
card-ended = Já terminou
# $time is minutes:seconds, e.g. 1:05.
card-countdown = Esperando por você · recusado automaticamente em { $time }
card-time-up = O tempo acabou · não foi feito
card-countdown-tip = Se você não responder, a ação não será feita.
card-deny = Recusar
# Allows this exact action again, without asking, until the conversation ends; the line below
# the buttons says what it covers.
card-allow-conversation = Permitir nesta conversa
# Followed by what the button allows, in the core's words.
alike-heading = { $tool ->
    [move_path] { $count } movimentações desta tarefa esperam a sua permissão.
    [write_file] { $count } arquivos a gravar nesta tarefa esperam a sua permissão.
   *[other] { $count } alterações de arquivos desta tarefa esperam a sua permissão.
}
alike-review = Responder a estes { $count } de uma vez…
alike-approve = Aprovar estes { $count }
alike-deny = Recusar estes { $count }
alike-cancel = Responder um por um
card-allow-scope = O que “Permitir nesta conversa” cobre
card-approve = Aprovar uma vez
card-note-label = O que o assistente deve fazer em vez disso? ({ $count } de { $max } caracteres)
card-deny-with-note = Recusar e avisar o assistente
card-add-note = Recusar com um recado para o assistente…
card-change-call = Alterar…
card-edit-title = Alterar esta ação antes que ela aconteça
card-edit-explain = Nada acontece ao salvar: a ação alterada recebe um cartão próprio (ou é recusada pelas suas regras), e você responde lá.
card-edit-field-path = Nome do arquivo
card-edit-field-content = Texto do arquivo
card-edit-field-new_text = Texto novo
card-edit-field-to = Mover para
card-edit-field-command = Linha de comando
card-edit-save = Salvar a alteração
card-edit-cancel = Cancelar

## When a card's request ended before the answer arrived

ended-quitting = Tarde demais: o Ask First estava fechando, então este pedido foi cancelado. Seu clique não mudou nada e a ação não foi feita.
ended-run-stopped = Tarde demais: a execução foi parada, então este pedido foi cancelado. Seu clique não mudou nada e a ação não foi feita.
ended-timed-out = Tarde demais: o tempo deste pedido já tinha acabado e ele foi recusado. Seu clique não mudou nada e a ação não foi feita.
ended-unavailable = Este pedido foi recusado porque a sua resposta não pôde ser registrada. Seu clique não mudou nada e a ação não foi feita.
ended-policy = Este pedido foi recusado pelas suas configurações. Seu clique não mudou nada e a ação não foi feita.
ended-refused = Este pedido já tinha sido recusado. Seu clique não mudou nada e a ação não foi feita.
ended-allowed = Este pedido já tinha sido permitido, então a ação foi feita.
ended-changed = Você alterou este pedido; a ação alterada é perguntada separadamente.
ended-not-pending = Este pedido já tinha terminado (o tempo acabou ou a execução foi parada). Seu clique não mudou nada e a ação não foi feita.
# $reason is what went wrong, in a sentence.
answer-not-sent = Não foi possível enviar a sua resposta: { $reason }

## What a card shows of a command, and of a change to a file

detail-command-title = O comando que ele vai rodar na sua pasta de trabalho
detail-command-runs-in = Ele roda em { $folder }
diff-cut-note = { $count ->
    [one] … 1 linha não mostrada aqui (acrescentadas: { $added }; removidas: { $removed }) …
   *[other] … { $count } linhas não mostradas aqui (acrescentadas: { $added }; removidas: { $removed }) …
}
diff-cut-warning = { $count ->
    [one] Esta mudança é longa demais para mostrar inteira: 1 linha dela não aparece abaixo. Abra "Detalhes exatos" para ver tudo o que o assistente enviou.
   *[other] Esta mudança é longa demais para mostrar inteira: { $count } linhas dela não aparecem abaixo. Abra "Detalhes exatos" para ver tudo o que o assistente enviou.
}
diff-cut-warning-some = Esta mudança é longa demais para mostrar inteira: uma parte dela não aparece abaixo. Abra "Detalhes exatos" para ver tudo o que o assistente enviou.

## O que um comando fez quando o Ask First o testou numa cópia da pasta (aparece antes do comando)

detail-command-tried-title = O comando
detail-command-tried-in = Ele foi testado numa cópia de { $folder }
tried-label = O que o comando fez numa cópia da sua pasta
tried-heading = O que o comando fez na cópia (Aprovar faz o mesmo na sua pasta):
tried-nothing = Na cópia da sua pasta, ele não mudou nada.
# Cada grupo de mudanças. $shape é "files" (só arquivos), "folders" (só pastas) ou "both";
# $files e $folders contam cada um.
tried-group-deleted = { $shape ->
    [folders] { $folders ->
        [one] Apagar { $folders } pasta
       *[other] Apagar { $folders } pastas
    }
    [both] { $folders ->
        [one] Apagar { $folders } pasta
       *[other] Apagar { $folders } pastas
    } e { $files ->
        [one] { $files } arquivo
       *[other] { $files } arquivos
    }
   *[files] { $files ->
        [one] Apagar { $files } arquivo
       *[other] Apagar { $files } arquivos
    }
}
tried-group-created = { $shape ->
    [folders] { $folders ->
        [one] Criar { $folders } pasta
       *[other] Criar { $folders } pastas
    }
    [both] { $folders ->
        [one] Criar { $folders } pasta
       *[other] Criar { $folders } pastas
    } e { $files ->
        [one] { $files } arquivo
       *[other] { $files } arquivos
    }
   *[files] { $files ->
        [one] Criar { $files } arquivo
       *[other] Criar { $files } arquivos
    }
}
tried-group-changed = { $count ->
    [one] Alterar { $count } arquivo
   *[other] Alterar { $count } arquivos
}
tried-group-moved = { $shape ->
    [folders] { $folders ->
        [one] Mover { $folders } pasta
       *[other] Mover { $folders } pastas
    }
    [both] { $folders ->
        [one] Mover { $folders } pasta
       *[other] Mover { $folders } pastas
    } e { $files ->
        [one] { $files } arquivo
       *[other] { $files } arquivos
    }
   *[files] { $files ->
        [one] Mover { $files } arquivo
       *[other] Mover { $files } arquivos
    }
}
tried-group-mode = { $shape ->
    [folders] { $folders ->
        [one] Mudar as permissões de { $folders } pasta
       *[other] Mudar as permissões de { $folders } pastas
    }
    [both] { $folders ->
        [one] Mudar as permissões de { $folders } pasta
       *[other] Mudar as permissões de { $folders } pastas
    } e { $files ->
        [one] { $files } arquivo
       *[other] { $files } arquivos
    }
   *[files] { $files ->
        [one] Mudar as permissões de { $files } arquivo
       *[other] Mudar as permissões de { $files } arquivos
    }
}
tried-group-link = { $count ->
    [one] Criar ou mudar um link
   *[other] Criar ou mudar { $count } links
}
# Uma mudança de um grupo. $path é o lugar dela na sua pasta; $target é para onde um link leva.
tried-item-folder-whole = a pasta { $path }, com tudo o que há nela
tried-item-folder = a pasta { $path }
tried-item-executable = Tornar { $path } executável (ele passa a poder rodar como programa)
tried-item-runs = pode rodar como programa
tried-item-mode = { $path } (quem pode ler, mudar ou rodar)
tried-item-mode-folder = a pasta { $path } (quem pode abrir ou mudar)
tried-item-link = { $path }, que leva a { $target }
tried-item-link-outside = { $path }, que leva a { $target }, fora da sua pasta
tried-mode-tip = As novas permissões como o computador as escreve: r lê, w muda, x roda; para o dono, o grupo e depois todos os outros.
tried-show-diff = Mostrar o que muda nele
tried-show-all = Mostrar todas as { $count }
tried-more = { $count ->
    [one] E mais { $count } mudança que não está listada aqui (aprovar faz ela também).
   *[other] E mais { $count } mudanças que não estão listadas aqui (aprovar faz elas também).
}
tried-printed = { $lines ->
    [one] O que ele mostrou ({ $lines } linha)
   *[other] O que ele mostrou ({ $lines } linhas)
}
tried-printed-nothing = Ele não mostrou nada.

## Errors the window words itself

internal-failure = Algo deu errado dentro do Ask First, então isto não foi feito. Tente de novo; se continuar acontecendo, feche o Ask First e abra de novo.

## The conversation

transcript-label = Conversa
transcript-new-below = { $count ->
    [one] Nova: 1 mensagem
   *[other] Novas: { $count } mensagens
}
transcript-try-again = Tentar de novo
transcript-empty = Diga abaixo o que o assistente deve fazer. Ele pode olhar os arquivos sozinho, mas vai perguntar a você antes de mudar qualquer coisa.
transcript-you = Você
# $provider is the name of who answers ("Demo", "OpenAI").
transcript-answered-by = Respondido por: { $provider }
transcript-resumed = O Ask First foi fechado no meio desta tarefa. Ela continua de onde parou; o que esperava o seu OK é perguntado de novo.
transcript-agent = Assistente
transcript-finished = O assistente terminou.
transcript-stopped = O assistente foi parado.
# $message says why, in a sentence.
transcript-failed = O assistente parou: { $message }
transcript-failed-unknown = algo deu errado.
transcript-loading = Carregando esta parte da conversa…
transcript-unloaded-failed = Não é possível mostrar esta parte da conversa agora. Role para longe e volte para tentar de novo.
tool-queued = Esperando a vez
tool-waiting = Esperando a sua permissão
tool-approved = Aprovado, roda na sua vez
tool-running = Rodando…
tool-succeeded = Concluído
tool-succeeded-granted = Concluído (permitido nesta conversa)
tool-succeeded-rule = Concluído (permitido pelas suas regras)
tool-changed = Você alterou esta ação antes que ela acontecesse.
tool-changed-allowed = Suas regras permitem a ação alterada sem perguntar, então ela não foi perguntada de novo.
tool-changed-details = O que o assistente pediu e como você alterou
tool-changed-asked = O assistente pediu:
tool-changed-to = Você alterou para:
tool-failed = Falhou
tool-denied = Não feito: recusado
tool-cancelled = Não feito: parado

## Allowed in this conversation

grants-label = Permitido nesta conversa
grants-heading = Se o assistente pedir de novo exatamente uma destas ações nesta conversa, ela é feita sem perguntar
grants-exact-details = Detalhes exatos
grants-stop-allowing = Parar de permitir
grants-hint = Isto termina quando você começa ou abre outra conversa, ou fecha o Ask First; abrir esta conversa de novo mais tarde não traz de volta. Todo o resto continua perguntando.

## The folder the agent works in

folder-bar-label = A pasta em que o assistente trabalha
folder-missing = A pasta desta conversa, { $folder }, não existe mais.
folder-demo = Trabalhando na pasta de demonstração (arquivos de exemplo)
folder-working-in = Trabalhando em: { $folder }
folder-change-new-conversation = Escolher outra pasta começa uma nova conversa lá; esta continua com a pasta dela.
folder-change-tip = Escolha a pasta em que o assistente pode trabalhar.
folder-change-running = A pasta pode ser trocada quando o assistente terminar.
# $variable is the name of an environment variable.
folder-set-by-env = (definida por { $variable })
folder-choose-another = Escolher outra pasta…
folder-change = Trocar…

## Conversations

sessions-new = Começar uma nova conversa
sessions-running = Pare o assistente ou deixe-o terminar para começar ou abrir outra conversa.
sessions-open-now = Aberta agora
sessions-open = Abrir

## The welcome

welcome-step = Boas-vindas ao Ask First · passo { $step } de { $steps }
welcome-folder-heading = Em qual pasta o assistente pode trabalhar?
welcome-folder-body = O assistente pode olhar os arquivos desta pasta e, depois que você disser OK em um cartão, mudá-los. Ele não pode mexer em nada fora dela.
welcome-pick = Escolher uma pasta…
welcome-demo = Experimentar com a pasta de demonstração (arquivos de exemplo)
welcome-folder-fixed = A pasta é definida quando o Ask First começa ({ $variable }).
welcome-next = Próximo
welcome-skip = Pular por agora
welcome-provider-heading = Quem responde?
welcome-provider-body = O assistente precisa de um modelo para pensar. Você pode mudar isto depois nas Configurações.
welcome-back = Voltar

## Error details

error-details = Detalhes
error-hide-details = Esconder detalhes
error-detail-cut = { $count ->
    [one] … (mais 1 caractere não mostrado)
   *[other] … (mais { $count } caracteres não mostrados)
}

## Showing text exactly: changes, JSON, hidden characters

diff-label = O que vai mudar
diff-unchanged-between = As linhas entre estas não mudam
diff-no-newline = (a linha acima não tem quebra de linha no final)
visible-escape-tip = Um caractere oculto ou de controle, mostrado pelo seu código para que não possa esconder nem reordenar o texto
# $at is where the first mistake is: the number of the character, counted from 1.
json-invalid = JSON inválido (um erro no caractere { $at }); mostrado como foi enviado:
json-folded = Parte disto está recolhida para manter a janela rápida ({ $chars } caracteres no total).
json-folded-lines = Parte disto está recolhida para manter a janela rápida ({ $chars } caracteres no total, { $lines } linhas).
json-show-all = Mostrar tudo
json-fold = Recolher as linhas { $from } a { $to }
json-unfold = Mostrar { $count } linhas recolhidas
json-lines-folded = … { $count } linhas recolhidas …
json-more-lines = … mais { $count } linhas escondidas …
json-more-chars = … mais { $count } caracteres escondidos …

## Who answers (Settings and the welcome)

provider-legend = Quem responde
provider-hint-demo = Sem IA: um roteiro fixo mostra como o Ask First pergunta antes de agir. Bom para experimentar.
provider-hint-ollama = Um modelo rodando neste computador com o Ollama. Nada do que você escreve sai do computador.
provider-hint-openai = Um serviço na internet que precisa de uma chave: a OpenAI, ou qualquer serviço com um endereço compatível com a OpenAI.
provider-hint-anthropic = Um serviço na internet que precisa de uma chave: a Anthropic (Claude).
provider-set-at-start = Definido quando o Ask First começou: { $provider }
provider-looking = Procurando o Ollama neste computador…
provider-installed-models = Modelos instalados
provider-not-installed = { $model } (não instalado)
technical-details = Detalhes técnicos
provider-look-again = Procurar de novo
provider-address = Endereço do serviço
provider-model = Modelo
provider-api-key = Chave de API
provider-api-key-optional = Chave de API (se o serviço precisar)
provider-key-saved = Há uma chave salva (digite para trocar)
provider-key-paste = Cole a sua chave
provider-remove-key = Remover a chave salva
provider-use-this = Usar este
connection-test = Testar a conexão
connection-testing = Testando…
connection-sending = Enviando uma pergunta curta…

## Your rules (Settings)

rules-heading = Suas regras
rules-added = Regra adicionada.
rules-changed = Regra alterada.
rules-removed = Regra removida.
# Followed by the rules file's path.
rules-intro = O que o assistente pode fazer sem perguntar, sempre deve perguntar antes, ou nunca pode fazer. Uma mudança vale a partir da próxima ação do assistente; um pedido que já espera continua esperando a sua resposta. Elas ficam num arquivo que você também pode editar à mão.
rules-file-where = Onde fica o arquivo
rules-file-mistake = Seu arquivo de regras não pode ser lido ou tem um erro, então nenhuma das regras dele está valendo: o Ask First pergunta antes de toda ação até ele ser corrigido, e não muda o arquivo a partir daqui. Corrija o arquivo (ou apague-o para começar de novo).
rules-none = Nenhuma regra: ler é feito direto, todo o resto pergunta.
rules-change = Alterar
rules-remove = Remover
rules-as-written = Como está escrito no arquivo
rules-file-line = (linha { $line } de { $file })
rules-by-hand = Esta regra foi escrita à mão de um jeito que as opções daqui não conseguem mostrar, então ela é alterada no próprio arquivo: { $file }.
rules-by-hand-line = Esta regra foi escrita à mão de um jeito que as opções daqui não conseguem mostrar, então ela é alterada no próprio arquivo: { $file }, linha { $line }.
rules-change-title = Alterar esta regra
rules-add = Adicionar uma regra
rule-everywhere = Em todo lugar
rule-in-folder = Em uma pasta
rule-one-command = Um comando
rule-one-site = Um site
rule-what-happens = O que acontece
rule-allow = Sempre permitir, sem perguntar
rule-ask = Sempre me perguntar antes
rule-never = Nunca
rule-to-what = Para o quê
rule-where = Onde
rule-folder = A pasta, dentro da sua pasta
rule-folder-example = por exemplo Particular ou Fotos/2024
rule-command = As palavras do comando
rule-command-example = por exemplo git status
rule-command-more = e qualquer coisa depois dessas palavras
rule-site = O site
rule-site-example = por exemplo example.com
rule-site-sub = e os subdomínios dele (www.… e os outros)
rule-choose = Escolha…
rule-save = Salvar a regra
rule-cancel = Cancelar

## MCP servers (Settings)

mcp-heading = Ferramentas extras (servidores MCP)
mcp-intro = Programas que dão mais ferramentas ao assistente. Toda ação que eles oferecem ainda pergunta a você antes, a não ser que você confie nas marcações de "só lê" do próprio servidor.
mcp-none = Nenhum ainda.
mcp-saved = Servidor MCP "{ $name }" salvo. A próxima tarefa pode usar as ferramentas dele.
mcp-removed = Servidor MCP "{ $name }" removido.
mcp-trusted = Confiável para dizer quais ferramentas só leem.
# Followed by the variables' names.
mcp-variables = Variáveis (valores escondidos):
mcp-edit = Editar
mcp-edit-label = Editar o servidor MCP { $name }
mcp-remove-question = Remover?
mcp-remove-yes = Sim, remover
mcp-keep = Manter
mcp-remove-label = Remover o servidor MCP { $name }
mcp-form-label = Servidor MCP
mcp-name = Nome (até 40 letras, números, - e _)
mcp-command = Comando que o inicia
mcp-command-example = npx -y @modelcontextprotocol/server-filesystem ~/Documentos
mcp-command-hint = Coloque entre aspas uma palavra que tenha espaços: 'Meus arquivos'.
mcp-env = Variáveis de ambiente
mcp-env-name = Nome da variável
mcp-env-name-example = NOME
mcp-env-value-of = Valor de { $name }
mcp-env-value-of-unnamed = Valor da variável
mcp-env-saved = Salvo (digite para trocar)
mcp-env-value = Valor
mcp-env-remove = Remover a variável { $name }
mcp-env-add = Adicionar uma variável
mcp-trust = Confiar nas marcações deste servidor: as ferramentas dele que dizem só ler rodam sem perguntar
mcp-save = Salvar o servidor
mcp-add = Adicionar um servidor MCP

## Settings

settings-close = Fechar
settings-language = Idioma
# $language is the name of the language now in use, in its own words.
settings-language-desktop = O mesmo da área de trabalho ({ $language })
settings-timeout = Segundos para esperar a sua resposta antes de recusar
settings-timeout-range = Digite um número inteiro de segundos de { $min } a { $max } para o tempo de espera.
settings-notify = Notificações quando algo precisa da sua permissão
settings-notify-unfocused = Quando o Ask First está em segundo plano
settings-notify-always = Sempre
settings-notify-never = Nunca
settings-notify-approve = Deixar eu aprovar pelas notificações
settings-notify-approve-new-files = Criar arquivos novos
settings-notify-approve-note = A notificação passa a ter Aprovar para um arquivo novo na sua pasta. Apagar, comandos, qualquer coisa fora da pasta e o que as suas regras perguntam sempre precisam do cartão.
settings-start-at-login = Abrir o Ask First quando eu entrar no computador
# $settings is a list of the settings below ("who answers and the model").
settings-fixed = Definidos quando o Ask First começou, então não podem ser mudados aqui: { $settings }.
setting-provider = quem responde
setting-base-url = o endereço do serviço
setting-model = o modelo
setting-api-key = a chave de API
setting-timeout = o tempo de espera
setting-notify = as notificações
settings-save = Salvar
settings-saved = Salvo. A próxima tarefa usa estas configurações.
# Followed by the folder's path.
settings-works-in = O assistente trabalha em:
settings-show-welcome = Mostrar as boas-vindas de novo
settings-grants = Se o assistente pedir de novo exatamente uma destas ações nesta conversa, ela é feita sem perguntar (isso termina quando você começa ou abre outra conversa, ou fecha o Ask First):
settings-grants-none = Nada: toda ação que precisa da sua permissão pergunta.

## Um pedido de outro agente neste computador (a caixa de entrada)

card-eyebrow-external = Outro programa neste computador pede
external-who-asks-title = Quem pede
external-who-asks = { $agent }, na pasta { $folder }
external-who-asks-to-run = { $agent }, na pasta { $folder }, executaria:
external-tooltip = Este pedido vem de { $agent }, outro programa neste computador, e não do assistente do Ask First. Ele trabalha na própria pasta, não na que você escolheu para o Ask First.

## Outros agentes neste computador (Configurações)

other-agents-heading = Outros agentes neste computador
other-agents-gone-heading = Pedidos que ficaram sem resposta
other-agents-gone-asked = { $agent } pediu:
other-agents-gone-asked-unknown = Outro programa pediu:
other-agents-gone-said = O Ask First foi fechado antes de você responder; { $agent } não está mais esperando por isto, e não foi permitido.
other-agents-gone-said-unknown = O Ask First foi fechado antes de você responder; o programa que pediu não está mais esperando por isto, e não foi permitido.
other-agents-gone-dismiss = Dispensar
other-agents-gone-dismiss-label = Dispensar este pedido de { $agent }
other-agents-gone-dismiss-label-unknown = Dispensar este pedido
other-agents-gone-more = { $count ->
    [one] e mais 1 pedido como estes
   *[other] e mais { $count } pedidos como estes
}
other-agents-intro = Outros agentes de IA que você usa em um terminal podem pedir sua permissão aqui, nos mesmos cartões. Conectar adiciona o Ask First às configurações do próprio agente; Desconectar remove exatamente isso.
other-agents-not-found = Não encontrado neste computador
other-agents-connected = Pede sua permissão pelo Ask First
other-agents-not-connected = Não conectado: ele pergunta na própria janela, não aqui
other-agents-connect = Conectar
other-agents-disconnect = Desconectar
other-agents-settings-file = As configurações dele: { $file }
other-agents-connect-label = Conectar { $name }
other-agents-disconnect-label = Desconectar { $name }

## Atividade: cada mudança que o assistente fez, e Desfazer

activity-title = Atividade
activity-open = Atividade
activity-intro = Tudo o que o assistente mudou, do mais recente ao mais antigo, em todas as conversas. Você pode desfazer uma mudança ou uma tarefa inteira.
activity-search = Procurar por nome de arquivo ou palavras
activity-empty = Nada foi mudado ainda.
activity-no-match = Nada corresponde a “{ $query }”.
activity-close = Fechar
activity-undo = Desfazer
activity-undo-task = Desfazer esta tarefa
activity-confirm-title = Desfazer vai perder algo
activity-confirm-yes = Desfazer mesmo assim
activity-confirm-no = Deixar como está
activity-in-conversation = Em “{ $title }”
activity-in-untitled = Em uma conversa sem título
activity-by-person = Você aprovou
activity-by-rule = Uma regra sua permitiu
activity-by-grant = Permitido naquela conversa
activity-by-default = Permitido sem perguntar
activity-state-done = Feito
activity-state-undone = Desfeito
activity-state-too-old = Antigo demais para desfazer: a cópia foi apagada para economizar espaço
activity-state-cannot = Não pode ser desfeito
activity-card-said = O cartão dizia:

# Settings → Other agents: Codex runs a hook only once the person trusts it in Codex.
other-agents-codex-trust = O Codex só usa o gancho do Ask First depois que você confiar nele: abra o Codex, digite /hooks e confie nele ali.

## Configurações: quem faz o trabalho (o assistente do Ask First, ou outro agente que ele hospeda)
worker-heading = Quem faz o trabalho
worker-intro = O assistente do próprio Ask First, ou um programa de agente de IA que você já usa neste computador. De qualquer forma, as alterações em arquivos chegam primeiro a você num cartão. A escolha vale para esta conversa a partir da próxima tarefa.
worker-own = O assistente do Ask First
worker-in-use = (em uso)
worker-command = Iniciado com
worker-none-found = Nenhum outro programa de agente foi encontrado neste computador (o Gemini CLI é encontrado como o programa gemini, o Claude como claude-agent-acp).
worker-use = Usar este
worker-saved = A partir da próxima tarefa, esta conversa usa este agente.
worker-sign-in-gemini = O agente Gemini CLI entra na conta por conta própria: execute gemini uma vez em um terminal e escolha como entrar (ou defina GEMINI_API_KEY). O Ask First nunca vê os seus dados de acesso.
worker-sign-in-claude = O agente Claude usa o acesso do Claude Code: execute claude uma vez em um terminal e entre na conta (ou defina ANTHROPIC_API_KEY). O Ask First nunca vê os seus dados de acesso.
worker-not-shut-in = Ainda sem isolamento: o que o agente { $agent } faz com as próprias ferramentas (os comandos dele e os arquivos que ele mesmo lê ou altera) não é contido pelo Ask First. Você só vê o que ele pede permissão para fazer, e ele pode ler arquivos fora desta pasta sem perguntar.
worker-sign-in-other = Este agente entra na conta por conta própria: execute-o uma vez em um terminal e siga os passos dele. O Ask First nunca vê os seus dados de acesso.
# $agent é o nome do agente que pede ("Gemini CLI").
approval-agent-asks = Pedido pelo agente { $agent }
