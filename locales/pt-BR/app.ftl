# As frases do Ask First em português do Brasil. Cada linha é "chave = frase": mude só o
# texto depois de " = ". Mantenha cada { $nome } (um nome de arquivo, uma contagem…) na frase:
# ele é preenchido quando a frase aparece. O original em inglês está em locales/en/app.ftl.

## Por que uma ação não foi feita (como a pessoa fica sabendo).

not_run-denied_by_person = Você disse não. A ação não foi feita.
not_run-denied_by_person_with_note = Você disse não, com a observação: "{ $note }". A ação não foi feita.
not_run-timed_out = Você não respondeu a tempo, então a ação não foi feita.
not_run-denied_by_rule = Suas configurações não permitem esta ação. Ela não foi feita.
not_run-denied_by_rule_with_reason = Suas configurações não permitem esta ação ({ $reason }). Ela não foi feita.
not_run-hard_denial = O Ask First nunca permite isto: { $reason } Não foi feito.
not_run-unavailable = Esta ação não pôde ser aprovada, então não foi feita.
not_run-unavailable_with_reason = Esta ação não pôde ser aprovada ({ $reason }), então não foi feita.
not_run-cancelled-run_aborted = Você parou a tarefa; esta ação não foi feita.
not_run-cancelled-app_shutdown = O aplicativo foi fechado; esta ação não foi feita.
not_run-interrupted-run_aborted = Você parou a tarefa enquanto esta ação estava em andamento; ela foi interrompida antes de terminar.
not_run-interrupted-app_shutdown = O aplicativo foi fechado enquanto esta ação estava em andamento; ela foi interrompida antes de terminar.
not_run-no_longer_awaited-run_aborted = Você parou a tarefa enquanto esta ação estava em andamento. O Ask First deixou de esperar por ela, então não se sabe se foi feita.
not_run-no_longer_awaited-app_shutdown = O aplicativo foi fechado enquanto esta ação estava em andamento. O Ask First deixou de esperar por ela, então não se sabe se foi feita.
not_run-changed_after_shown = Não foi feito: o arquivo ou a pasta mudou depois de ser mostrado para aprovação ("{ $summary }"), então a ação já não faria o que foi mostrado. Nada foi alterado; peça de novo com as coisas como estão agora.
not_run-run_ended_before = A tarefa foi parada antes desta ação; ela não foi feita.
not_run-output_limit = As ações desta tarefa já produziram { $limit_mb } MB de saída, o máximo que o Ask First repassa em uma tarefa (limite de { $limit_mb } MB), então a tarefa termina aqui; esta ação não foi feita.
not_run-too_many_calls = Não foi feito: o assistente pediu { $asked } ações de uma vez, e o Ask First faz no máximo { $limit } por vez, então as outras { $left_out } não foram examinadas, perguntadas nem feitas. Ele foi orientado a pedir menos de cada vez.
not_run-closed_before_start = Foi permitido, mas o Ask First foi fechado antes de começar, então não foi feito.
not_run-may_have_run = O Ask First parou enquanto isto estava em andamento, então pode ter sido feito, em parte ou por completo. Confira antes de contar com isso.
not_run-refused_end_not_saved = Esta ação não foi feita.
not_run-end_not_saved = Não foi salvo como isto terminou (o Ask First não conseguiu gravar o histórico naquele momento), então não se sabe se foi feito.

## O que o cartão de um comando diz que ele vai fazer.

command-runs_downloaded = Executa um script que baixa de { $hosts }: o Ask First não consegue ver o que esse script vai fazer.
command-runs_downloaded_anywhere = Executa um script que baixa da internet: o Ask First não consegue ver o que esse script vai fazer.
command-shell_features = Usa recursos do terminal (variáveis, substituições, padrões de nomes de arquivo ou redirecionamentos), então o Ask First não consegue saber tudo o que ele faz antes de rodar.
command-builds_commands = Monta os comandos que executa enquanto roda ({ $how }), então o Ask First não consegue saber o que eles vão fazer.
command-unknown-confined = O Ask First não sabe o que { $programs } faz.
command-unknown-unconfined = O Ask First não sabe o que { $programs } faz.
command-leaves_folder = Primeiro vai para outra pasta ({ $to }), então os nomes depois disso podem estar fora da sua pasta.
command-deletes_folder = Apaga a pasta { $name } para sempre, com tudo o que há nela (não vai para a lixeira).
command-deletes_file = Apaga o arquivo { $name } para sempre (não vai para a lixeira).
command-deletes_missing = Apaga { $name } para sempre se existir quando o comando rodar (agora não há nada com esse nome).
command-deletes_pattern = Apaga para sempre tudo o que { $name } indicar quando o comando rodar; o Ask First não consegue saber quais arquivos são.
command-deletes_files = Apaga { $count } arquivos para sempre (não vão para a lixeira): { $names }
command-deletes_folders = Apaga { $count } pastas para sempre, com tudo o que há nelas (não vão para a lixeira): { $names }
command-deletes_mixed = Apaga { $count } arquivos e pastas para sempre (não vão para a lixeira): { $names }
command-deletes_given = Apaga para sempre os arquivos que recebe do comando anterior; o Ask First não consegue saber quais.
command-deletes_found = Apaga para sempre todos os arquivos que encontrar (não vão para a lixeira).
command-deletes_empty_folders = Apaga as pastas vazias { $names }
command-destroys = Destrói o conteúdo de { $names } sem possibilidade de recuperação
command-writes = Substitui ou cria o arquivo { $name }
command-appends = Acrescenta ao final do arquivo { $name } (ou o cria)
command-writes_files = Altera os arquivos { $names }
command-writes_outside-blocked = Grava fora da sua pasta ({ $name }). Ele roda isolado, então essa parte vai falhar.
command-writes_outside-thrown_away = Grava fora da sua pasta ({ $name }). Ele roda isolado e vê ali uma cópia vazia, descartada quando termina, então nada ali muda.
command-writes_outside-unconfined = Grava fora da sua pasta ({ $name }), e neste computador nada o impede.
command-reads_outside = Lê fora da sua pasta: { $name }
command-reads_outside-hidden = Procura fora da sua pasta ({ $name }); esse lugar fica escondido dele, então não encontra nada ali.
command-moves = Move ou renomeia arquivos: { $names }
command-copies = Copia arquivos, substituindo os que tiverem o mesmo nome no destino: { $names }
command-permissions = Altera as permissões de { $names }
command-owner = Altera o dono de { $names }
command-stops_programs = Encerra programas em execução ({ $program })
command-administrator = Roda com direitos de administrador ({ $program }): poderia alterar qualquer coisa no computador.
command-downloads = Baixa de { $hosts } ({ $program })
command-downloads_anywhere = Baixa da internet ({ $program })
command-sends = Envia dados para { $hosts } ({ $program })
command-sends_anywhere = Envia dados para a internet ou para outro computador ({ $program })
command-replaces_remote = Envia dados para a internet e substitui o que está lá (git push --force)
command-discards_changes = Descarta para sempre as alterações não salvas no Git ({ $command })
command-deletes_untracked = Apaga para sempre os arquivos que o Git não acompanha (git clean)
command-background-confined = Roda uma parte de si em segundo plano; tudo o que ele inicia é encerrado quando o comando termina.
command-background-unconfined = Roda uma parte de si em segundo plano, que pode continuar rodando depois que o comando termina.
command-background_program-confined = Inicia um programa em segundo plano ({ $program }); tudo o que ele inicia é encerrado quando o comando termina.
command-background_program-unconfined = Inicia um programa em segundo plano ({ $program }) que pode continuar rodando depois que o comando termina.
command-keeps_running = Continua rodando até você apertar Parar ou o tempo limite passar ({ $program })
command-runs_script = Executa o script { $script }, cujos passos o Ask First não consegue ver.
command-runs_input = Executa comandos que { $program } lê da entrada (por exemplo, a saída do comando anterior), que o Ask First não consegue ver antes.
command-runs_code = Executa código { $language } dado na linha de comando, cujos passos o Ask First não consegue ver.
command-runs_build = Executa as etapas de compilação do projeto ({ $command }), cujos passos o Ask First não consegue ver.
command-runs_program = Executa o programa { $path } da sua pasta, cujos passos o Ask First não consegue ver.
command-installs_packages = Baixa da internet e instala pacotes ({ $command }), que podem rodar os próprios scripts de instalação, cujos passos o Ask First não consegue ver.
command-runs_package = Baixa e executa um pacote ({ $command }), cujos passos o Ask First não consegue ver.
command-runs_project_script = Executa o script { $script } do projeto ({ $command }), cujos passos o Ask First não consegue ver.
command-installs_software = Baixa da internet e instala programas ({ $command })
command-containers = Baixa da internet e executa contêineres ({ $command })
list-join = { $first }, { $rest }
list-pair = { $first } e { $second }
list-and_more = { $names } e mais { $count }
command-more = …e mais { $count }.

## Se um comando roda isolado: a primeira linha do cartão dele.

confinement-shut_in = Ele roda isolado: só pode alterar arquivos da sua pasta de trabalho, não vê o resto da sua pasta pessoal nem os arquivos do Ask First, e tudo o que ele inicia é encerrado quando ele termina. Ele pode usar a internet.
confinement-not_shut_in = Neste computador ele não roda isolado: pode ler e alterar qualquer arquivo seu, inclusive os do próprio Ask First, e o que ele iniciar em segundo plano pode continuar rodando. Aprove só se você confia neste comando.
confinement-no_copy = Neste computador, o Ask First não consegue testar o comando numa cópia da sua pasta: ele roda na própria pasta, então as mudanças não podem ser mostradas antes de acontecer nem desfeitas.
# $rules: the rules' sentences, as Settings lists them, joined by "; ".
confinement-kept = O que suas regras protegem fica escondido dele: { $rules }.
# $rules: as above; $more: how many further rules keep places too (1 or more).
confinement-kept_more = O que suas regras protegem fica escondido dele: { $rules }; e mais { $more }.
# $rules: the sentences of rules about changing files, as above.
confinement-read_only = O que quer que ele tente, não pode alterar, mover nem apagar o que estas regras protegem (pode ler): { $rules }.
# $rules: as above; $more: how many further such rules (1 or more).
confinement-read_only_more = O que quer que ele tente, não pode alterar, mover nem apagar o que estas regras protegem (pode ler): { $rules }; e mais { $more }.

## Erros que a janela mostra: o que aconteceu e o que fazer.

error-run-empty_task = Digite primeiro uma tarefa para o assistente.
error-run-busy = O assistente ainda está trabalhando na tarefa anterior. Pare-o ou espere ele terminar.
acp-no_command = Digite o comando que inicia o agente (por exemplo: gemini --acp).
error-run-folder_gone = A pasta em que esta conversa trabalha, { $path }, não existe mais. Escolha uma pasta para ela com "Alterar…" acima da caixa de tarefa.
error-internal = Algo deu errado dentro do Ask First, então isto não foi feito. Tente de novo; se continuar acontecendo, feche o Ask First e abra de novo.
error-session-busy = O assistente ainda está trabalhando. Pare-o ou espere ele terminar primeiro.
error-session-folder_fixed = A pasta é definida por ASKFIRST_WORKSPACE quando o Ask First começa, então não pode ser mudada aqui. Abra o Ask First sem ela para escolher uma pasta.
error-session-unreadable = Não foi possível abrir esta conversa, porque o histórico dela não pode ser lido (pode ter sido movido ou apagado). Escolha outra conversa ou comece uma nova.
error-session-not_writable = O Ask First não consegue gravar o histórico desta conversa, então ela não foi aberta. Libere espaço no disco ou verifique se o Ask First pode gravar na pasta de dados dele e tente de novo.
error-history-unreadable = O Ask First não conseguiu ler de volta o que já aconteceu nesta conversa, então a janela não pode mostrá-la inteira. Abra a conversa de novo na lista de conversas anteriores; o histórico dela no disco está completo.
error-approval-not_pending = Este pedido já não está esperando: já foi respondido, o tempo acabou ou a tarefa foi parada. Nada foi alterado; veja os pedidos que ainda aparecem.
error-approval-not_grantable = Esta ação não pode ser permitida sem perguntar de novo. Aprove só desta vez ou recuse.
error-approval-required = "{ $summary }" precisa da aprovação de alguém, e não há ninguém aqui para dar. Execute a tarefa na janela do Ask First para responder.
error-approval-log = O Ask First não consegue salvar o histórico agora, então não fez isto. Libere espaço no disco ou verifique se o Ask First pode gravar na pasta de dados dele e tente de novo.
error-approval-shutting_down = O Ask First está fechando, então ninguém foi consultado e a ação não foi feita. Abra o Ask First de novo para continuar.
error-approval-change-not_offered = Este pedido não pode ser alterado aqui. Aprove ou recuse; uma nota ao recusar diz ao assistente o que fazer em vez disso.
error-approval-change-too_big = O que você digitou é longo demais para uma ação. Encurte o texto, ou recuse o pedido e diga ao assistente o que fazer em vez disso.
error-approval-change-same = Nada foi alterado. Altere o texto primeiro, ou clique em Cancelar para deixar o pedido como estava.
error-settings-unknown_provider = O Ask First não conhece esse serviço de modelo. Escolha um da lista em Configurações.
error-settings-timeout_out_of_range = O tempo de espera precisa ficar entre { $min } e { $max } segundos. Escolha um tempo de espera dentro desse intervalo e salve de novo.
error-settings-file_unreadable = O seu arquivo de configurações não pode ser lido ou tem um erro, então Configurações não vai gravar por cima dele. Corrija ou apague o arquivo e tente de novo.
error-settings-save_failed = Não foi possível salvar as suas configurações. Verifique se o disco não está cheio e se o Ask First pode gravar na pasta de dados dele e tente de novo.
error-settings-no_such_rule = Essa regra não está mais entre as suas regras (o arquivo de regras pode ter sido alterado). Feche Configurações e abra de novo para ver as regras como estão agora.
error-settings-rules_unreadable = Não foi possível ler as suas regras, então nada foi alterado. Verifique se o Ask First pode ler e gravar na pasta de dados dele e tente de novo.
error-settings-rules_invalid = O seu arquivo de regras tem um erro, então nada foi alterado. Corrija o arquivo (ou apague-o para começar de novo) e tente de novo.
error-settings-mcp_server = { $problem } Confira as configurações do servidor e tente de novo.
error-settings-keyring_remove = Não foi possível remover a chave do chaveiro da área de trabalho (o restante das configurações foi salvo). Tente de novo ou remova-a com o aplicativo de senhas da área de trabalho, onde ela aparece como "Ask First".
error-startup-already_running = O Ask First já está aberto. Use a janela dele (pode estar na bandeja ou entre as janelas minimizadas).
error-startup-no_data_dir = O Ask First não sabe onde guardar as configurações neste sistema. Defina ASKFIRST_DATA_DIR com uma pasta que ele possa usar e abra-o de novo.
error-startup-bad_setting = Uma das configurações ASKFIRST_ com que o Ask First foi aberto não pode ser usada. Corrija-a ou tire-a (os detalhes dizem qual) e abra o Ask First de novo.
error-startup-folder = O Ask First não consegue usar uma das pastas dele: pode não ter permissão para gravar nela, ou o disco pode estar cheio. Verifique se ele pode gravar na pasta de dados dele e na sua pasta e abra-o de novo.
error-startup-window = O Ask First não conseguiu abrir a janela. Abra-o pela sua área de trabalho (ele precisa de uma sessão gráfica) e tente de novo.

## Notificações.

start_at_login-failed = O Ask First não conseguiu mudar se ele abre quando você entra no computador. Nada foi mudado.
notify-title = O Ask First precisa da sua aprovação
notify-open = Abrir
notify-deny = Recusar
notify-approve = Aprovar uma vez
notify-folder = Pasta: { $folder }
notify-folder-demo = Pasta: a pasta de demonstração (arquivos de exemplo)
notify-many = { $count ->
    [one] { $count } ação está esperando
   *[other] { $count } ações estão esperando
}
notify-still_running-title = O Ask First continua aberto
notify-still_running-body = O Ask First continua trabalhando em segundo plano e vai perguntar aqui quando precisar da sua aprovação. Abra-o pelo ícone na bandeja ou inicie-o de novo; para sair, use o menu da bandeja.

## O menu e a dica do ícone na bandeja.

tray-pending = { $count ->
    [0] Nenhuma aprovação esperando
    [one] { $count } aprovação esperando
   *[other] { $count } aprovações esperando
}
tray-more = …e mais { $count } na janela
tray-review = Revisar: { $label }
tray-show = Mostrar o Ask First
tray-quit = Sair
tray-tooltip = { $count ->
    [0] Ask First
    [one] Ask First — { $count } pedido esperando sua aprovação
   *[other] Ask First — { $count } pedidos esperando sua aprovação
}

## Como uma tarefa terminou, como a conversa mostra.

run-broke = Algo deu errado dentro do Ask First e esta tarefa parou. Nada mais será feito nela; você pode começar uma nova tarefa.
run-closed_while_working = O Ask First foi fechado enquanto o assistente trabalhava.
run-you_stopped = Você parou o assistente.
run-unrecorded = Parte desta tarefa não pôde ser salva (o disco estava cheio ou não pôde ser gravado), então não se sabe como ela terminou.
run-stopped_after_finishing = { $why } O que já estava sendo feito foi terminado, já que parar no meio poderia deixar tudo pela metade: { $summary }.
run-output_limit = O assistente foi parado: as ações dele nesta tarefa produziram mais de { $limit_mb } MB de saída, o máximo que o Ask First permite em uma tarefa. Envie uma nova mensagem para continuar.
not_run-folder_gone = Não foi feito: sua pasta { $folder } não existe mais.
run-folder_gone = Sua pasta { $folder } não existe mais (foi movida ou apagada), então a tarefa parou. Escolha outra pasta para continuar.
run-out_of_steps = O assistente parou depois de { $max_steps } passos sem terminar. Envie uma nova mensagem para ele continuar ou dê a ele uma tarefa menor.
run-kept_asking = O assistente insistiu em fazer algo que já tinha sido recusado ("{ $summary }"), então foi parado. Envie uma nova mensagem dizendo o que ele deve fazer no lugar.

## No cartão de aprovação.

# O que "Permitir nesta conversa" faz: diga exatamente quando termina.
card-grant_scope = Enquanto esta conversa estiver aberta, esta mesma ação (mesma ferramenta, mesmos detalhes) vai rodar de novo sem perguntar, desde que aquilo em que ela mexe esteja como mostrado aqui ou como esta ação deixar. Qualquer coisa diferente continua perguntando. Isso termina quando você começar ou abrir outra conversa, ou fechar o Ask First.
card-too_many_summary = O assistente pediu { $asked } ações de uma vez; as { $left_out } depois das primeiras { $limit } não foram feitas
card-use_the_tool = Usar uma ferramenta extra ({ $name })
card-use-read_file = Ler um arquivo
card-use-list_directory = Ver uma pasta
card-use-write_file = Gravar um arquivo
card-use-edit_file = Alterar um arquivo
card-use-move_path = Mover ou renomear um arquivo ou pasta
card-use-delete_path = Apagar um arquivo ou pasta
card-use-run_command = Executar um comando
card-use-fetch_url = Abrir uma página da web

## O seletor de pasta.

folder-picker_title = Escolha a pasta em que o assistente pode trabalhar

## Quando o Ask First não consegue abrir.

startup-failed = O Ask First não conseguiu abrir. { $message }
startup-details = Detalhes: { $detail }

## O que o cartão de aprovação diz que uma ferramenta embutida vai fazer.

card-write-create = Criar o arquivo { $name } ({ $lines ->
    [0] 0 linhas
    [one] { $lines } linha
   *[other] { $lines } linhas
})
card-write-replace = Substituir todo o conteúdo de { $name } por um texto novo ({ $lines ->
    [0] 0 linhas
    [one] { $lines } linha
   *[other] { $lines } linhas
})
card-read = Ler o arquivo { $name }
card-list-workspace = Ver a lista de arquivos da sua pasta de trabalho
card-list-folder = Ver a lista de arquivos da pasta { $name }
card-delete-file = Mover { $name } para a lixeira (dá para restaurar)
card-delete-folder = Mover a pasta { $name } para a lixeira, { $count ->
    [0] ela está vazia
    [one] com { $count } item dentro
   *[other] com { $count } itens dentro
} (dá para restaurar)
card-delete-big_folder = Mover a pasta { $name } para a lixeira, com mais de { $count } itens dentro (dá para restaurar)
card-delete-shortcut = Mover o atalho { $name } para a lixeira; o próprio { $target } continua onde está (dá para restaurar)
card-move = Mover { $from } para { $to }
card-move-folder = Mover a pasta { $from } para { $to }
card-command = Executar o comando `{ $command }` na sua pasta de trabalho
card-command-with_limit = Executar o comando `{ $command }` na sua pasta de trabalho (parar se demorar mais de { $seconds ->
    [0] 0 segundos
    [one] { $seconds } segundo
   *[other] { $seconds } segundos
})
card-edit-replace = Substituir { $removed ->
    [0] 0 linhas
    [one] { $removed } linha
   *[other] { $removed } linhas
} em { $name }
card-edit-remove = Remover { $removed ->
    [0] 0 linhas
    [one] { $removed } linha
   *[other] { $removed } linhas
} de { $name }
card-edit-add = Acrescentar { $added ->
    [0] 0 linhas
    [one] { $added } linha
   *[other] { $added } linhas
} a { $name }
card-edit-replace_with = Substituir { $removed ->
    [0] 0 linhas
    [one] { $removed } linha
   *[other] { $removed } linhas
} por { $added ->
    [0] 0 linhas
    [one] { $added } linha
   *[other] { $added } linhas
} em { $name }
card-fetch-this_computer = Ler a página { $url } (um endereço neste computador)
card-fetch-this_computer-risk = O endereço está neste computador, não na internet: ele chega a um programa rodando aqui, que pode entregar informações privadas ou agir a partir do pedido.
card-fetch-local_network = Ler a página { $url } (um endereço da sua rede local)
card-fetch-local_network-risk = O endereço está na sua rede local, não na internet: um aparelho como um roteador, uma impressora ou outro computador de casa ou do trabalho.
card-fetch-cloud_metadata-risk = Em um servidor na nuvem, este endereço entrega as configurações e as chaves de acesso do próprio servidor.
card-fetch-internet = Ler a página { $url } (isto vai para a internet)
card-fetch-credentials-risk = O endereço contém um nome de usuário ou uma senha, que são enviados junto.
card-fetch-redirects = Se o site mandar o pedido para outro endereço, o Ask First não segue: você será consultado de novo sobre esse endereço.

## Quem responde, como a conversa o chama ("Respondido por: …").

provider-name-model_at_host = { $model } em { $host }
provider-name-demo = Agente de demonstração (offline, segue um roteiro fixo)
provider-name-scenario = Roteiro fixo ({ $path })
# The choices of who answers, in the welcome and Settings (src-tauri/core/src/app/catalog.rs).
provider-choice-demo = A demonstração (sem IA, para experimentar o Ask First)
provider-choice-openai = Um serviço com chave: OpenAI ou um endereço compatível
provider-choice-ollama = Um modelo neste computador (Ollama)
provider-choice-anthropic = Um serviço com chave: Anthropic (Claude)

## Quando um serviço de modelo falha.

provider-script_exhausted = O roteiro do modelo simulado não tem mais turno para a chamada { $step }; ele tem { $turns } turnos. Acrescente um turno ao arquivo do roteiro ou dê ao assistente uma tarefa menor.
provider-config = O Ask First não consegue usar o seu arquivo de configurações para saber qual serviço de modelo deve responder. Abra Configurações e escolha de novo quem responde, ou corrija ou apague o arquivo.
provider-missing_key = Adicione a sua chave de API de { $host } nas configurações (ou em { $env_var }).
provider-bad_scenario = O arquivo de roteiro do modelo simulado não pode ser usado. Confira o arquivo indicado em ASKFIRST_PROVIDER (os detalhes dizem o que há de errado).
provider-auth = A chave de API foi recusada por { $host }. Confira a chave nas configurações.
provider-model_not_found = O modelo "{ $model }" não foi encontrado em { $host }. Confira o nome do modelo nas configurações.
provider-rate_limited = O serviço de modelo em { $host } diz que está recebendo pedidos demais e continuou recusando depois de { $tries } tentativas. Espere um minuto e tente de novo, ou confira os limites do seu plano.
provider-busy_too_long = O serviço de modelo em { $host } está ocupado e pede para esperar mais do que o Ask First espera entre tentativas ({ $limit } segundos), então esta tarefa parou. Tente de novo daqui a pouco ou verifique os limites do plano.
provider-server_error = O serviço de modelo em { $host } está com problemas (erro { $status }) e continuou falhando depois de { $tries } tentativas. Tente de novo mais tarde.
provider-context_too_long = Esta conversa ficou mais longa do que o modelo em { $host } consegue ler de uma vez, então ela não pode continuar aqui. Para continuar, clique em Conversas, no alto, e depois em “Começar uma nova conversa”; esta continua na lista. Se uma conversa nova parar do mesmo jeito, este modelo lê pouco demais de uma vez para a tarefa: escolha outro nas Configurações.
provider-over_plan_limit = Esta conversa ficou maior do que o seu plano em { $host } aceita em um só pedido, então ela não pode continuar aqui, e esperar não vai ajudar. Para continuar, clique em Conversas, no alto, e depois em “Começar uma nova conversa”; esta continua na lista. Ou aumente o limite do plano com o serviço.
provider-refused = O serviço de modelo em { $host } recusou o pedido (erro { $status }). Confira o endereço e o nome do modelo nas configurações.
provider-service_error = O serviço de modelo em { $host } parou com um erro enquanto respondia. Tente de novo.
provider-malformed = O serviço de modelo em { $host } mandou uma resposta que o Ask First não consegue ler. Tente de novo; se continuar acontecendo, confira o endereço nas configurações.
provider-ended_early = A resposta de { $host } parou antes de terminar. Tente de novo.
provider-idle_timeout = O serviço de modelo em { $host } não mandou nada por { $waited }, então o Ask First parou de esperar. Tente de novo; um modelo que ainda está carregando pode precisar de um momento.
provider-too_slow = O serviço de modelo em { $host } ainda estava respondendo depois de { $limit }, então o Ask First parou de esperar. Tente de novo com uma tarefa menor.
provider-connect-refused = Nada respondeu em { $host }. Verifique se o serviço de modelo está rodando e se o endereço nas configurações está certo.
provider-connect-name_not_found = O endereço { $host } não foi encontrado. Confira o endereço nas configurações e a conexão com a internet.
provider-connect-tls = Não foi possível fazer uma conexão segura com { $host }. Verifique se o endereço nas configurações deve começar com http:// ou https://.
provider-connect-timed_out = A conexão com { $host } demorou demais. Confira a conexão com a internet e o endereço nas configurações.
provider-connect-dropped = O serviço de modelo em { $host } fechou a conexão sem responder. Tente de novo mais tarde.
provider-connect-other = Não foi possível chegar ao modelo em { $host }. Confira a conexão com a internet e o endereço nas configurações.
provider-not_an_ai_service-web_page = O endereço { $host } respondeu com uma página da web, não com um serviço de modelo; uma página de login ou de acesso à rede pode estar no caminho. Confira o endereço nas configurações.
provider-not_an_ai_service = O endereço { $host } não respondeu como um serviço de modelo. Confira o endereço nas configurações.
provider-too_large-tool_calls = O modelo em { $host } pediu mais de { $count } ações em uma resposta, mais do que o Ask First aceita de uma vez. Tente de novo com uma tarefa menor.
provider-too_large-reply = A resposta de { $host } passou de { $limit_mb } MB, mais do que o Ask First aceita de um modelo de uma vez. Tente de novo com uma tarefa menor.
provider-too_large-piece = A resposta de { $host } tinha um trecho maior que { $limit_mb } MB, mais do que o Ask First aceita de um modelo de uma vez. Tente de novo com uma tarefa menor.
duration-less_than_a_second = menos de um segundo
duration-seconds = { $count ->
    [one] { $count } segundo
   *[other] { $count } segundos
}
duration-minutes = { $count ->
    [one] { $count } minuto
   *[other] { $count } minutos
}

## Por que um cartão pergunta, ou por que uma ação rodou sem perguntar.

reason-granted = Permitido nesta conversa: você já permitiu exatamente esta ação antes.
reason-mcp-reads = Só lê, segundo o servidor MCP "{ $server }", em que você confia.
reason-mcp-asks = Isto usa o servidor MCP "{ $server }", que poderia alterar coisas ou acessar a internet, então precisa da sua aprovação.
reason-reads = Só lê.
reason-reads-risky = Isto só lê, mas está marcado como arriscado, então precisa da sua aprovação.
reason-changes = Isto altera arquivos da sua pasta de trabalho, então precisa da sua aprovação.
reason-high_risk = Esta é uma ação de alto risco, então precisa da sua aprovação.
reason-rule-asks = Sua regra “{ $rule }” diz para perguntar a você antes.
reason-rule-allows = Permitido pela sua regra “{ $rule }”.
reason-rules_unreadable = Não foi possível ler o arquivo de regras { $path }: { $detail } Até isso ser corrigido, o Ask First pergunta antes de cada ação.
reason-rules_mistake = O arquivo de regras { $path } tem um erro: { $detail } Até isso ser corrigido, o Ask First pergunta antes de cada ação.

## "Testar a conexão" e a busca pelo Ollama em Configurações.

probe-works = Funciona: { $model } em { $host } respondeu.
probe-no_service_needed = A demonstração não precisa de conexão: ela responde a partir de um roteiro fixo, sem IA.
probe-bad_address = "{ $text }" não é um endereço da web. Ele deve ser parecido com https://api.example.com/v1.
probe-missing_key = { $host } precisa de uma chave de API. Cole a sua chave acima e teste de novo.
probe-key_refused = A chave foi recusada por { $host }. Verifique se você copiou a chave inteira e se ela ainda é válida.
probe-not_an_ai_service-web_page = { $host } respondeu com uma página da web, então não é um serviço de IA; uma página de login pode estar no caminho. Confira o endereço.
probe-not_an_ai_service = { $host } respondeu, mas não é um serviço de IA que o Ask First consiga usar. Confira o endereço (em serviços compatíveis com a OpenAI ele costuma terminar em /v1).
probe-model_not_found = { $host } não tem um modelo chamado "{ $model }" e não disse quais tem. Confira o nome do modelo.
probe-model_not_found-choose = { $host } não tem um modelo chamado "{ $model }". Escolha um dos que ele tem: { $models }.
probe-rate_limited = { $host } diz que está recebendo pedidos demais agora. Espere um minuto e teste de novo.
probe-out_of_credit = { $host } diz que a conta está sem crédito ou sem cota. Confira o plano e a cobrança com o serviço.
probe-service_trouble = { $host } está com problemas do lado dele (erro { $status }). Tente de novo mais tarde.
probe-service_error = { $host } parou com um erro enquanto respondia. Tente de novo mais tarde.
probe-refused = { $host } recusou o teste (erro { $status }). Confira o endereço e o nome do modelo.
probe-too_slow = { $host } não respondeu em { $waited }, então o Ask First parou de esperar. Um modelo local que ainda está carregando pode precisar de mais uma tentativa.
probe-connect-refused = Nada responde em { $host }. Confira o endereço e se o serviço está rodando.
probe-connect-name_not_found = O endereço { $host } não foi encontrado. Confira o endereço e a conexão com a internet.
probe-connect-tls = Não foi possível fazer uma conexão segura com { $host }. Verifique se o endereço deve começar com http:// ou https://.
probe-connect-timed_out = Nada respondeu em { $host } a tempo. Confira o endereço e a conexão com a internet.
probe-connect-dropped = { $host } fechou a conexão sem responder. Tente de novo mais tarde.
probe-connect-other = Não foi possível chegar a { $host }. Confira o endereço e a conexão com a internet.
probe-no_local_model = Nenhum modelo local está rodando neste computador. Instale o Ollama (ollama.com) e abra-o, ou escolha outra forma de responder.
probe-ollama-no_models = O Ollama está rodando neste computador, mas ainda não tem nenhum modelo. Baixe um com o Ollama (por exemplo: ollama pull llama3.1) ou escolha outra forma de responder.
probe-ollama-models = O Ollama está rodando com { $count ->
    [one] { $count } modelo
   *[other] { $count } modelos
}. Escolha qual deles responde.
probe-ollama-not_answering = O Ollama não responde em { $host }. Confira o endereço ou escolha outra forma de responder.
probe-ollama-not_ollama = Algo responde em { $host }, mas não é o Ollama. Confira o endereço ou escolha outra forma de responder.

## Quando a pasta escolhida não pode ser usada.

folder-unopenable = Não foi possível abrir a pasta { $path }. Verifique se você tem permissão para abri-la ou escolha outra pasta.
folder-not_saved = A pasta já está em uso, mas o Ask First não conseguiu guardá-la para a próxima vez. Verifique se o disco não está cheio e se o Ask First pode gravar na pasta de dados dele e escolha-a de novo.
folder-missing = A pasta { $path } não existe. Escolha uma pasta que exista.
folder-not_a_folder = Isto é um arquivo, não uma pasta: { $path }. Escolha uma pasta.
folder-whole_computer = Isto é o computador inteiro. Escolha uma pasta com os arquivos em que o assistente deve trabalhar, como Documentos.
folder-home_folder = Esta é a sua pasta pessoal inteira, com todos os seus arquivos. Escolha uma pasta dentro dela, como Documentos, para o assistente trabalhar.
folder-own_data = Essa pasta guarda os arquivos do próprio Ask First (configurações, chaves e histórico), que o assistente nunca pode alterar. Escolha outra pasta.
folder-case_without_identity = Essa pasta está num disco que não distingue letras maiúsculas de minúsculas de um jeito que o Ask First consiga verificar, então suas regras não poderiam ser cumpridas ali. Copie os arquivos para uma pasta no disco deste computador ou escolha outra pasta.
folder-session_files = Essa pasta contém os arquivos privados da sua sessão da área de trabalho (onde o chaveiro e outros programas escutam), que o assistente nunca pode alcançar. Escolha outra pasta.

## Desfazer e Atividade (src-tauri/core/src/undo/words.rs, app/codes.rs UndoError)

undo-bytes = { $count ->
    [one] { $count } byte
   *[other] { $count } bytes
}
undo-too-large-on-card = Esta mudança não poderá ser desfeita: o arquivo tem { $size }, grande demais para o Ask First guardar uma cópia.
undo-too-large = O arquivo tinha { $size }, grande demais para o Ask First guardar uma cópia.
undo-command = Comandos não podem ser desfeitos: o Ask First não consegue ver tudo o que um comando mudou.
undo-other-program = O Ask First não consegue desfazer o que a ferramenta de outro programa fez; só pode mostrar o que o cartão dizia.
undo-no-copy = O Ask First não guardou uma cópia de antes desta mudança (ela foi feita antes de o Desfazer existir).
undo-copy-refused = O Ask First não conseguiu guardar uma cópia de { $file } para poder desfazer esta mudança (o disco pode estar cheio), então não mudou o arquivo. Libere algum espaço e tente de novo.
undo-changed-since = { $file } foi alterado depois da mudança do assistente. Desfazer põe de volta a versão de antes da mudança do assistente, e essas alterações posteriores serão perdidas.
undo-changed-since-created = { $file } foi alterado depois que o assistente o criou. Desfazer o move para a lixeira com essas alterações (você pode restaurá-lo de lá).
undo-changed-since-more = { $count ->
    [one] Mais um arquivo da tarefa também foi alterado depois da mudança do assistente, e essas alterações também serão perdidas.
   *[other] Mais { $count } arquivos da tarefa também foram alterados depois da mudança do assistente, e essas alterações também serão perdidas.
}
undo-undone = Desfeito: { $summary }.
undo-task-undone = { $count ->
    [one] A única mudança da tarefa foi desfeita.
   *[other] As { $count } mudanças da tarefa foram desfeitas, da mais recente para a mais antiga.
}
undo-not-recorded = O Ask First não conseguiu registrar esta mudança no histórico da conversa, então não a fez. Libere algum espaço e tente de novo.
error-undo-not_found = Esta mudança não está mais no histórico da conversa, então não pode ser desfeita. Feche a Atividade e abra de novo para ver o que há lá.
error-undo-already_undone = Isto já foi desfeito, então nada mais foi mudado. Veja na Atividade que está marcado como desfeito.
error-undo-cannot_undo = { $why } Confira os arquivos você mesmo para deixar tudo como estava.
error-undo-too_old = A cópia necessária para desfazer esta mudança foi apagada para economizar espaço (as cópias mais antigas saem primeiro), então ela não pode mais ser desfeita. Procure uma versão anterior na lixeira ou em um backup.
error-undo-folder_gone = A pasta { $folder }, onde esta mudança foi feita, não existe mais, então ela não pode ser desfeita. Ponha a pasta de volta onde estava e tente de novo.
error-undo-place_taken = Agora há outra coisa em { $path }, então nada foi posto de volta lá. Mova ou renomeie essa coisa e tente de novo.
error-undo-gone = "{ $path }" não existe mais, então não há nada para desfazer. Procure na lixeira se sentir falta dele.
error-undo-gone_from_trash = "{ $path }" não está mais na lixeira (ela pode ter sido esvaziada), então não pode ser restaurado. Procure em um backup, se tiver um.
error-undo-log = O Ask First não conseguiu registrar o desfazer no histórico da conversa, então não desfez nada. Libere algum espaço e tente de novo.
error-undo-failed = Desfazer não funcionou, e o arquivo ficou como estava. Tente de novo; se continuar falhando, veja os Detalhes.
error-undo-task_stopped = { $undone } das { $total } mudanças da tarefa foram desfeitas, da mais recente para a mais antiga, e então parou em "{ $summary }": { $why } As mudanças mais antigas ficaram como estavam.
error-undo-not_a_folder = "{ $folder }" não é mais uma pasta: outra coisa, como um atalho para outro lugar, está onde ela estava. O Ask First não desfaz através dele, então nada foi alterado. Coloque a pasta de volta onde estava e tente de novo.

## Outros agentes neste computador (src-tauri/core/src/inbox/words.rs, app/codes.rs ConnectError)

inbox-wants-run = { $agent }, na pasta { $folder }, quer executar `{ $command }`
inbox-wants-write = { $lines ->
    [one] { $agent }, na pasta { $folder }, quer gravar o arquivo { $path } ({ $lines } linha)
   *[other] { $agent }, na pasta { $folder }, quer gravar o arquivo { $path } ({ $lines } linhas)
}
inbox-wants-edit = { $agent }, na pasta { $folder }, quer alterar o arquivo { $path }
inbox-wants-read = { $agent }, na pasta { $folder }, quer ler o arquivo { $path }
inbox-wants-fetch = { $agent }, na pasta { $folder }, quer buscar { $url } na internet
inbox-wants-use = { $agent }, na pasta { $folder }, quer usar a ferramenta "{ $tool }"
inbox-reason = { $agent } pede sua permissão aqui em vez de no terminal dele. Ele trabalha na própria pasta, não na que você escolheu para o Ask First, e o Ask First não limita o que ele faz.
inbox-not-ours = Este é um pedido do próprio { $agent }: se você aprovar, o próprio { $agent } faz.
inbox-no-home = O Ask First não sabe qual é a sua pasta pessoal, então não consegue encontrar as configurações dos outros agentes.
inbox-cannot-read = O Ask First não consegue ler o arquivo de configurações de { $agent }. Verifique se ele é válido e tente de novo.
error-connect-no_home = O Ask First não sabe qual é a sua pasta pessoal, então não consegue mudar as configurações do agente. Abra o Ask First a partir da sua sessão da área de trabalho e tente de novo.
error-connect-no_hook = O programa askfirst-hook não está instalado junto com o Ask First, então o agente não pode ser conectado. Instale o Ask First de novo e tente outra vez.
error-connect-io = O Ask First não conseguiu mudar o arquivo de configurações do agente. Verifique se o arquivo pode ser gravado e tente de novo.
error-connect-not_settings = O arquivo de configurações do agente tem um erro, então o Ask First não o alterou. Corrija o arquivo (ou tire-o de lá) e tente de novo.

# The inbox: an allow rule matched another agent's request, which is still asked.
inbox-allow-rule-not-applied = Uma das suas regras permitiria isto para o assistente do próprio Ask First, mas { $agent } não fica preso à sua pasta como o assistente do Ask First, então você é consultado.
inbox-command-reaches-kept = { $agent } executa este comando por conta própria, então o Ask First não consegue esconder dele o que suas regras protegem, e ele trabalha numa pasta que contém parte disso: { $rules }. Ele poderia ler ou alterar esses lugares sem nomeá-los. Aprove só se tiver certeza de que ele não mexe neles.
inbox-command-reaches-kept_more = { $agent } executa este comando por conta própria, então o Ask First não consegue esconder dele o que suas regras protegem, e ele trabalha numa pasta que contém parte disso: { $rules }; e mais { $more }. Ele poderia ler ou alterar esses lugares sem nomeá-los. Aprove só se tiver certeza de que ele não mexe neles.
inbox-command-reach-unknown = { $agent } executa este comando por conta própria, e as palavras dele não mostram tudo o que ele lê ou altera (ele executa código ou um programa que o Ask First não consegue ver por dentro). Ele poderia alcançar os arquivos do próprio Ask First, com suas configurações e chaves, que o Ask First não consegue esconder dele. Aprove só se você confia no que ele executa.
inbox-command-near-own-files = { $agent } executa este comando por conta própria, numa pasta que contém os arquivos do próprio Ask First (suas configurações, chaves e histórico), que o Ask First não consegue esconder dele. Aprove só se tiver certeza de que ele não mexe neles.
# The inbox: what "Allow in this conversation" does on another agent's card (its own session permission).
inbox-session-command = { $agent } não vai perguntar de novo por exatamente `{ $command }` até você fechar aquela conversa do { $agent }. Ele mesmo guarda isso, então o Ask First também não será consultado de novo sobre isso.
inbox-session-site = { $agent } não vai perguntar de novo para buscar páginas de { $host } até você fechar aquela conversa do { $agent }. Ele mesmo guarda isso, então o Ask First também não será consultado de novo sobre isso.
## Uma regra como frase (src-tauri/core/src/policy/words.rs). $kind é a lista da regra (deny: nunca,
## ask: perguntar antes, allow: sempre); $shape é sobre o que ela é: all, folder, path, matching,
## command / command_more, site / site_sub.

rule-read_file = { $kind ->
        [deny] { $shape ->
               *[all] Nunca ler arquivos
                [folder] Nunca ler arquivos em { $folder }
                [path] Nunca ler { $path }
                [matching] Nunca ler arquivos que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de ler arquivos
                [folder] Perguntar antes de ler arquivos em { $folder }
                [path] Perguntar antes de ler { $path }
                [matching] Perguntar antes de ler arquivos que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir ler arquivos
                [folder] Sempre permitir ler arquivos em { $folder }
                [path] Sempre permitir ler { $path }
                [matching] Sempre permitir ler arquivos que correspondem a “{ $pattern }”
        }
    }
rule-list_directory = { $kind ->
        [deny] { $shape ->
               *[all] Nunca listar o conteúdo de pastas
                [folder] Nunca listar o conteúdo de pastas em { $folder }
                [path] Nunca listar o conteúdo de { $path }
                [matching] Nunca listar o conteúdo de pastas que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de listar o conteúdo de pastas
                [folder] Perguntar antes de listar o conteúdo de pastas em { $folder }
                [path] Perguntar antes de listar o conteúdo de { $path }
                [matching] Perguntar antes de listar o conteúdo de pastas que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir listar o conteúdo de pastas
                [folder] Sempre permitir listar o conteúdo de pastas em { $folder }
                [path] Sempre permitir listar o conteúdo de { $path }
                [matching] Sempre permitir listar o conteúdo de pastas que correspondem a “{ $pattern }”
        }
    }
rule-write_file = { $kind ->
        [deny] { $shape ->
               *[all] Nunca escrever arquivos
                [folder] Nunca escrever arquivos em { $folder }
                [path] Nunca escrever { $path }
                [matching] Nunca escrever arquivos que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de escrever arquivos
                [folder] Perguntar antes de escrever arquivos em { $folder }
                [path] Perguntar antes de escrever { $path }
                [matching] Perguntar antes de escrever arquivos que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir escrever arquivos
                [folder] Sempre permitir escrever arquivos em { $folder }
                [path] Sempre permitir escrever { $path }
                [matching] Sempre permitir escrever arquivos que correspondem a “{ $pattern }”
        }
    }
rule-edit_file = { $kind ->
        [deny] { $shape ->
               *[all] Nunca alterar arquivos
                [folder] Nunca alterar arquivos em { $folder }
                [path] Nunca alterar { $path }
                [matching] Nunca alterar arquivos que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de alterar arquivos
                [folder] Perguntar antes de alterar arquivos em { $folder }
                [path] Perguntar antes de alterar { $path }
                [matching] Perguntar antes de alterar arquivos que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir alterar arquivos
                [folder] Sempre permitir alterar arquivos em { $folder }
                [path] Sempre permitir alterar { $path }
                [matching] Sempre permitir alterar arquivos que correspondem a “{ $pattern }”
        }
    }
rule-move_path = { $kind ->
        [deny] { $shape ->
               *[all] Nunca mover ou renomear arquivos e pastas
                [folder] Nunca mover ou renomear arquivos e pastas em { $folder }
                [path] Nunca mover ou renomear { $path }
                [matching] Nunca mover ou renomear arquivos e pastas que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de mover ou renomear arquivos e pastas
                [folder] Perguntar antes de mover ou renomear arquivos e pastas em { $folder }
                [path] Perguntar antes de mover ou renomear { $path }
                [matching] Perguntar antes de mover ou renomear arquivos e pastas que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir mover ou renomear arquivos e pastas
                [folder] Sempre permitir mover ou renomear arquivos e pastas em { $folder }
                [path] Sempre permitir mover ou renomear { $path }
                [matching] Sempre permitir mover ou renomear arquivos e pastas que correspondem a “{ $pattern }”
        }
    }
rule-delete_path = { $kind ->
        [deny] { $shape ->
               *[all] Nunca apagar arquivos e pastas
                [folder] Nunca apagar arquivos e pastas em { $folder }
                [path] Nunca apagar { $path }
                [matching] Nunca apagar arquivos e pastas que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de apagar arquivos e pastas
                [folder] Perguntar antes de apagar arquivos e pastas em { $folder }
                [path] Perguntar antes de apagar { $path }
                [matching] Perguntar antes de apagar arquivos e pastas que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir apagar arquivos e pastas
                [folder] Sempre permitir apagar arquivos e pastas em { $folder }
                [path] Sempre permitir apagar { $path }
                [matching] Sempre permitir apagar arquivos e pastas que correspondem a “{ $pattern }”
        }
    }
rule-run_command = { $kind ->
        [deny] { $shape ->
               *[all] Nunca executar comandos
                [folder] Nunca executar comandos que mexem em { $folder }
                [command] Nunca executar o comando “{ $words }”
                [command_more] Nunca executar o comando “{ $words }” (com qualquer coisa depois)
                [matching] Nunca executar comandos que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de executar comandos
                [folder] Perguntar antes de executar comandos que mexem em { $folder }
                [command] Perguntar antes de executar o comando “{ $words }”
                [command_more] Perguntar antes de executar o comando “{ $words }” (com qualquer coisa depois)
                [matching] Perguntar antes de executar comandos que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir executar comandos
                [folder] Sempre permitir executar comandos que mexem em { $folder }
                [command] Sempre permitir executar o comando “{ $words }”
                [command_more] Sempre permitir executar o comando “{ $words }” (com qualquer coisa depois)
                [matching] Sempre permitir executar comandos que correspondem a “{ $pattern }”
        }
    }
rule-fetch_url = { $kind ->
        [deny] { $shape ->
               *[all] Nunca baixar da internet
                [site] Nunca baixar de { $host }
                [site_sub] Nunca baixar de { $host } e dos seus subdomínios
                [matching] Nunca baixar de endereços que correspondem a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de baixar da internet
                [site] Perguntar antes de baixar de { $host }
                [site_sub] Perguntar antes de baixar de { $host } e dos seus subdomínios
                [matching] Perguntar antes de baixar de endereços que correspondem a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir baixar da internet
                [site] Sempre permitir baixar de { $host }
                [site_sub] Sempre permitir baixar de { $host } e dos seus subdomínios
                [matching] Sempre permitir baixar de endereços que correspondem a “{ $pattern }”
        }
    }
rule-mcp_tool = { $kind ->
        [deny] { $shape ->
               *[all] Nunca usar a ferramenta “{ $tool }” do servidor MCP “{ $server }”
                [folder] Nunca usar a ferramenta “{ $tool }” do servidor MCP “{ $server }” em qualquer coisa em { $folder }
                [matching] Nunca usar a ferramenta “{ $tool }” do servidor MCP “{ $server }” em qualquer coisa que corresponda a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de usar a ferramenta “{ $tool }” do servidor MCP “{ $server }”
                [folder] Perguntar antes de usar a ferramenta “{ $tool }” do servidor MCP “{ $server }” em qualquer coisa em { $folder }
                [matching] Perguntar antes de usar a ferramenta “{ $tool }” do servidor MCP “{ $server }” em qualquer coisa que corresponda a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir usar a ferramenta “{ $tool }” do servidor MCP “{ $server }”
                [folder] Sempre permitir usar a ferramenta “{ $tool }” do servidor MCP “{ $server }” em qualquer coisa em { $folder }
                [matching] Sempre permitir usar a ferramenta “{ $tool }” do servidor MCP “{ $server }” em qualquer coisa que corresponda a “{ $pattern }”
        }
    }
rule-other_tool = { $kind ->
        [deny] { $shape ->
               *[all] Nunca usar a ferramenta “{ $tool }”
                [folder] Nunca usar a ferramenta “{ $tool }” em qualquer coisa em { $folder }
                [matching] Nunca usar a ferramenta “{ $tool }” em qualquer coisa que corresponda a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de usar a ferramenta “{ $tool }”
                [folder] Perguntar antes de usar a ferramenta “{ $tool }” em qualquer coisa em { $folder }
                [matching] Perguntar antes de usar a ferramenta “{ $tool }” em qualquer coisa que corresponda a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir usar a ferramenta “{ $tool }”
                [folder] Sempre permitir usar a ferramenta “{ $tool }” em qualquer coisa em { $folder }
                [matching] Sempre permitir usar a ferramenta “{ $tool }” em qualquer coisa que corresponda a “{ $pattern }”
        }
    }
rule-anything = { $kind ->
        [deny] { $shape ->
               *[all] Nunca fazer nada (toda ação é recusada)
                [folder] Nunca mexer em nada em { $folder }
                [path] Nunca mexer em { $path }
                [matching] Nunca mexer em nada que corresponda a “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Perguntar antes de qualquer coisa
                [folder] Perguntar antes de qualquer coisa em { $folder }
                [path] Perguntar antes de qualquer coisa em { $path }
                [matching] Perguntar antes de qualquer coisa que corresponda a “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Sempre permitir tudo, sem perguntar
                [folder] Sempre permitir qualquer coisa em { $folder }
                [path] Sempre permitir qualquer coisa em { $path }
                [matching] Sempre permitir qualquer coisa que corresponda a “{ $pattern }”
        }
    }

## As opções de "o quê" do formulário "Adicionar uma regra" (src-tauri/core/src/policy/words.rs).

rule-action-anything = Qualquer coisa
rule-action-read_file = Ler arquivos
rule-action-list_directory = Listar o que há em pastas
rule-action-write_file = Escrever arquivos (novos ou substituídos)
rule-action-edit_file = Alterar partes de arquivos
rule-action-move_path = Mover ou renomear arquivos e pastas
rule-action-delete_path = Apagar arquivos e pastas
rule-action-run_command = Executar comandos
rule-action-fetch_url = Baixar da internet
rule-action-mcp_tool = A ferramenta “{ $tool }” do servidor MCP “{ $server }”
rule-action-other_tool = A ferramenta “{ $tool }”

## Quando uma regra de Configurações → Regras é recusada (src-tauri/core/src/app/rules_screen.rs, RuleEditError).

rule_edit-file = Não foi possível alterar o arquivo de regras, então nada foi alterado. Corrija o arquivo à mão (ou apague-o para começar de novo), ou confira se o Ask First pode gravar na sua pasta de dados, e tente de novo.
rule_edit-unknown_action = O Ask First não tem nenhuma ação “{ $name }” para criar uma regra. Escolha uma da lista.
rule_edit-scope_not_for_action = Este tipo de lugar não pode ser escolhido para { $name }. Escolha outro da lista.
rule_edit-allow_by_folder = { $name } não pode ser permitido por pasta, porque o Ask First não consegue ter certeza de onde isso age. Escolha “Sempre me perguntar antes” ou “Nunca”, ou permita em todo lugar.
rule_edit-folder_missing = Escolha uma pasta, ou escolha “Em todo lugar”.
rule_edit-folder_not_inside = Escreva a pasta como ela está dentro da sua pasta, como Private ou Photos/2024 (sem “..”).
rule_edit-folder_pattern = Um nome de pasta com caracteres de padrão (como * ou ?) não pode ser usado aqui. Escreva uma regra assim à mão no arquivo de regras.
rule_edit-folder_not_found = Não há nenhuma pasta “{ $name }” na sua pasta. Confira o nome, ou escolha uma da lista.
rule_edit-not_a_folder = “{ $name }” é um arquivo, não uma pasta. Escolha uma pasta.
rule_edit-command_missing = Digite as primeiras palavras do comando, por exemplo “git status”.
rule_edit-command_pattern = Digite as palavras do comando como elas são, sem caracteres de padrão (como * ou ?) nem aspas. Escreva uma regra assim à mão no arquivo de regras.
rule_edit-site_invalid = “{ $name }” não é um site. Digite um como example.com.
rule_edit-site_missing = Digite o nome do site, por exemplo “example.com”.
rule_edit-already_there = Você já tem esta regra: { $name }. Use o botão Alterar dela para mudá-la.
rule_edit-no_such_rule = Esta regra não está mais no arquivo de regras (talvez tenha sido alterada lá). A lista agora mostra o arquivo como ele está: olhe e tente de novo.

## Quando as configurações de um servidor MCP não podem ser salvas (src-tauri/core/src/mcp/config.rs, McpConfigError).

mcp_config-name_length = Dê ao servidor um nome de 1 a { $limit } caracteres.
mcp_config-name_characters = O nome de um servidor só pode usar letras (sem acentos), números, "-" e "_" (ele vira parte do nome das suas ferramentas).
mcp_config-no_longer_saved = Não existe mais nenhum servidor MCP chamado "{ $name }".
mcp_config-no_such_server = Não existe nenhum servidor MCP chamado "{ $name }".
mcp_config-name_taken = Outro servidor MCP já se chama "{ $name }"; os nomes não podem ser diferentes só nas maiúsculas.
mcp_config-unclosed_quote = O comando tem uma aspa que não foi fechada.
mcp_config-no_program = Diga qual programa inicia o servidor (por exemplo: npx -y @modelcontextprotocol/server-filesystem ~/Documents).
mcp_config-variable_name = "{ $name }" não pode ser o nome de uma variável de ambiente: use letras, números e "_", sem começar com um número.
mcp_config-variable_value = Dê um valor à variável { $name }.
mcp_config-variable_twice = A variável { $name } aparece duas vezes.

## O estado de um servidor MCP em Configurações → Servidores MCP (src-tauri/core/src/mcp/server.rs e stderr.rs).
# { $trouble } é uma das frases mcp-trouble-*; { $said } é mcp-it_said ou nada.

mcp-call = Usar "{ $tool }" do servidor MCP "{ $server }"
mcp-call-titled = Usar "{ $tool }" do servidor MCP "{ $server }" (o servidor o chama de "{ $title }")
mcp-start_failed = Não foi possível iniciar o servidor MCP "{ $server }": { $trouble }.{ $said } Confira o comando dele nas configurações; ele será tentado de novo na próxima vez que for preciso, depois de { $retry }.
mcp-trouble-slow = ele não terminou de iniciar em { $wait }
mcp-trouble-not_found = o programa "{ $program }" não foi encontrado
mcp-trouble-cannot_run = o programa "{ $program }" não pôde ser executado
mcp-trouble-stopped_early = ele parou antes de ficar pronto
mcp-trouble-not_mcp = ele não respondeu como um servidor MCP deveria
mcp-trouble-no_tools = ele não conseguiu listar as suas ferramentas
# O que o servidor escreveu por último, como escreveu. Começa com um espaço: {" "}.
mcp-it_said = {" "}Ele disse: "{ $text }".
mcp-stopped = O servidor MCP "{ $server }" parou.{ $said } Ele será iniciado de novo na próxima vez que uma das suas ferramentas for necessária.
mcp-stopped_during_call = O servidor MCP "{ $server }" parou enquanto "{ $tool }" estava rodando, então não se sabe se fez alguma coisa. Ele será iniciado de novo na próxima vez que uma das suas ferramentas for necessária.
mcp-call_timed_out = O servidor MCP "{ $server }" não respondeu em { $wait }, então foi parado; não se sabe se "{ $tool }" fez alguma coisa. Ele será iniciado de novo na próxima vez que uma das suas ferramentas for necessária.
mcp-retired = O servidor MCP "{ $server }" foi removido ou alterado nas configurações, então não foi usado.
mcp-not_tried_again = { $failure } (Ainda não foi tentado de novo: a próxima tentativa é daqui a { $wait }.)
mcp-refused = O servidor MCP "{ $server }" se recusou a executar "{ $tool }": { $said }
mcp-bad_answer = O servidor MCP "{ $server }" não respondeu direito quando "{ $tool }" foi usado ({ $why }).
mcp-tool_error = A ferramenta "{ $tool }" do servidor MCP "{ $server }" informou um erro: { $said }
mcp-problem-no_name = Um servidor MCP nas configurações não tem nome; dê um nome a ele para usá-lo.
mcp-problem-no_command = O servidor MCP "{ $server }" não tem comando nas configurações, então não pode ser iniciado. Dê um comando a ele em Configurações (Editar).
mcp-problem-same_name = Outro servidor MCP nas configurações tem o mesmo nome que "{ $server }" (ou um que só muda na pontuação); dê a cada um o seu próprio nome.
mcp-status-next_task = Começa com a próxima tarefa.
mcp-status-when_needed = Começa quando uma tarefa precisar dele.
mcp-status-starting = Iniciando…
mcp-status-running = { $count ->
    [0] Rodando, sem nenhuma ferramenta.
    [one] Rodando, { $count } ferramenta.
   *[other] Rodando, { $count } ferramentas.
}

## Onde fica guardada a chave de um serviço de modelo, na tela de configurações.

key_place-keyring = Sua chave fica guardada no chaveiro da área de trabalho.
key_place-file_no_keyring = Não há nenhum chaveiro neste computador, então sua chave fica guardada no arquivo de configurações do Ask First, que só você pode ler.
key_place-file_keyring_refused = Sua chave fica guardada no arquivo de configurações do Ask First, que só você pode ler: o chaveiro da área de trabalho não a aceitou.
key_place-none_keyring = Uma chave que você salvar aqui fica guardada no chaveiro da área de trabalho.
key_place-none_no_keyring = Não há nenhum chaveiro neste computador, então uma chave que você salvar aqui fica guardada no arquivo de configurações do Ask First, que só você pode ler.
key_place-keyring_silent = O chaveiro da área de trabalho não respondeu, então o Ask First não consegue saber se a sua chave está guardada nele.
key_place-environment = Sua chave vem da variável de ambiente { $name }, que vale mais do que as configurações.

## Por que a política recusou uma ação sem perguntar (src-tauri/core/src/policy/, command_line/hard.rs).
refusal-own_files = O assistente não pode ler nem alterar os arquivos do próprio Ask First (configurações, regras, registros das conversas).
refusal-too_many_texts = Esta ação cita mais textos (ou textos mais longos) do que o Ask First consegue verificar em busca de caminhos que ela não pode tocar, então não foi feita. Peça em partes menores.
refusal-outside_workspace = { $path } fica fora da sua pasta de trabalho.
refusal-dont_ask_now = Você escolheu não ser perguntado nesta conversa, então as ações que precisam do seu OK não são feitas.
refusal-rule_forbids = Sua regra “{ $rule }” proíbe isto.
refusal-answer_not_saved = não foi possível salvar sua resposta no histórico do Ask First, talvez porque o disco esteja cheio; por segurança, nada foi executado
refusal-question_not_saved = não foi possível salvar a pergunta no histórico do Ask First, talvez porque o disco esteja cheio, então você não foi consultado
refusal-nobody_to_answer = não há ninguém aqui para autorizar “{ $summary }”
refusal-command-stops = Este comando desligaria ou reiniciaria o computador.
refusal-command-wipes = Este comando poderia apagar um disco ou o sistema inteiro.
refusal-command-device = Este comando escreveria direto em um disco, o que pode destruir tudo o que há nele.
refusal-command-deletes_outside = Este comando apagaria para sempre uma pasta inteira fora da sua pasta de trabalho (um caminho absoluto, sua pasta pessoal ou um caminho com `..`).
refusal-command-deletes_unknown = Este comando apagaria uma pasta inteira cujo nome só se sabe quando ele roda (vem de uma variável), então ela pode estar fora da sua pasta de trabalho.
refusal-command-everything_permissions = Este comando mudaria as permissões ou o dono de todos os arquivos do computador ou da sua pasta pessoal.
refusal-command-kills_all = Este comando pararia todos os programas que você está usando, inclusive o Ask First.
refusal-command-too_deep = Este comando aninha shells em camadas demais para ser verificado.
refusal-command-fork_bomb = Este comando é uma "fork bomb": deixaria o computador inutilizável.
# $name: a path in the folder; $rule: the rule's sentence.
refusal-command_change = Testado numa cópia da sua pasta, este comando iria { $change ->
    [created] criar
    [deleted] apagar
   *[other] mudar
} { $name }, o que sua regra “{ $rule }” proíbe, então nada do que ele fez foi colocado na sua pasta.

tool_failed-invalid_arguments = O pedido do assistente para usar { $tool } não era válido, então nada foi feito.
tool_failed-no_such_tool = O assistente pediu uma ferramenta chamada "{ $tool }", que o Ask First não tem, então nada foi feito.
tool_failed-server_down = "{ $tool }" não pode ser usado agora. { $why }
tool_failed-io-read = Não foi possível ler { $path }: { $why }.
tool_failed-io-write = Não foi possível salvar { $path }: { $why }.
tool_failed-io-list = Não foi possível listar o que há em { $path }: { $why }.
tool_failed-io-move = Não foi possível mover { $path }: { $why }.
tool_failed-io-create_folder = Não foi possível criar a pasta para { $path }: { $why }.
tool_failed-why-permission = você não tem permissão
tool_failed-why-not_found = não existe
tool_failed-why-disk_full = o disco está cheio
tool_failed-why-read_only = o disco só pode ser lido, não gravado
tool_failed-is_a_folder = { $name } é uma pasta, não um arquivo.
tool_failed-no_such_file = O arquivo { $name } não existe.
tool_failed-not_text = { $name } não é um arquivo de texto, então não pode ser editado.
tool_failed-edit_not_found = O texto a substituir não está em { $name }, então nada foi alterado.
tool_failed-edit_many = O texto a substituir aparece { $count } vezes em { $name }, então o Ask First não sabe qual delas mudar; nada foi alterado.
tool_failed-command-exit_code = O comando falhou (código de saída { $code }).
tool_failed-command-signal = O comando foi encerrado pelo sinal { $signal }.
tool_failed-command-no_code = O comando terminou sem código de saída.
tool_failed-command-too_long = O comando foi parado depois de { $wait } porque ainda estava rodando, e tudo o que ele iniciou também foi parado.
tool_failed-command-left_running = Ele deixou programas rodando em segundo plano; eles foram parados.
# $size: a size (8 GB); $count: a number of files.
tool_failed-command-wrote_too_much = O comando foi parado: na cópia da sua pasta ele escreveu mais do que um comando pode escrever (mais de { $size } ou { $count } arquivos, ou estava enchendo o disco). Nada do que ele fez foi colocado na sua pasta.
tool_failed-command-printed = O que ele mostrou:
tool_failed-command-printed_nothing = Ele não mostrou nada.
tool_failed-not_there = { $name } não existe.
tool_failed-already_there = { $name } já existe, então não foi substituído.
tool_failed-move_workspace = A própria pasta de trabalho não pode ser movida.
tool_failed-trash_workspace = A própria pasta de trabalho não pode ir para a lixeira.
tool_failed-trash_failed = { $name } não pôde ir para a lixeira ({ $why }), então ficou onde estava. O Ask First nunca apaga nada de vez.
tool_failed-command-unsupported = Ainda não é possível executar comandos neste sistema.
tool_failed-command-not_started = O comando não pôde ser iniciado ({ $why }).
# $command: the command line; $count: how many changes it made on the copy (1 or more).
card-command-tried = Aplicar na sua pasta o que o comando `{ $command }` fez numa cópia dela: { $count ->
    [one] 1 mudança
   *[other] { $count } mudanças
}
card-command-tried-reason = Nada mudou na sua pasta ainda: o comando rodou numa cópia dela, sem internet.
card-command-tried-apply = Aprovar coloca exatamente as mudanças listadas abaixo na sua pasta (o comando não roda de novo); você pode desfazê-las em Atividade. Recusar as descarta.
card-command-tried-grant_scope = Enquanto esta conversa estiver aberta, este mesmo comando pode fazer estas mudanças de novo sem perguntar: os mesmos arquivos, mudados do mesmo jeito. Qualquer coisa a mais (outro arquivo, outro tipo de mudança, ou um script que ele roda editado desde então) ainda pergunta. Termina quando você começa ou abre outra conversa, ou fecha o Ask First.
# $command: the command line.
card-command-tried-granted = O comando `{ $command }`, fazendo as mesmas mudanças que você permitiu
tried-ended_ok = Terminou sem erro.
# $why: the technical reason.
tried-unreadable = O comando foi testado numa cópia da sua pasta, mas o Ask First não conseguiu ler o que ele mudou ({ $why }), então nada foi aplicado.
# $why: the technical reason.
tried-no_copy = O comando não rodou: o Ask First não conseguiu fazer uma cópia da sua pasta para testá-lo ({ $why }).
# $name: a file's path in the folder.
tried-conflict = Nada foi aplicado: { $name } mudou na sua pasta depois que o comando foi testado, e aplicar teria sobrescrito isso. Peça de novo para testar o comando na pasta como está agora.
# $why: the technical reason.
tried-apply_failed = As mudanças do comando não puderam ser colocadas na sua pasta ({ $why }), então nenhuma foi aplicada.
tool_failed-command-lost = O Ask First perdeu o controle do comando ({ $why }), então tudo o que ele iniciou foi parado.
# $cap: a number (1000).
tool_failed-command-too_many_kept = O comando não foi executado: suas regras mantêm mais de { $cap } arquivos e pastas da sua pasta longe dos comandos, demais para escondê-los dele. Uma regra que nomeia uma pasta protege tudo o que está nela de uma vez.
# $entries: a number (50000); $depth: a number (32).
tool_failed-command-folder_too_big = O comando não foi executado: sua pasta é grande demais para encontrar tudo o que suas regras mantêm longe dos comandos (mais de { $entries } arquivos, ou pastas com { $depth } níveis de profundidade). Escolha uma pasta menor para esta tarefa, ou faça a regra nomear uma pasta.
# $name: a folder's full path.
tool_failed-command-unreadable = O comando não foi executado: o Ask First não consegue olhar dentro de { $name } para encontrar o que suas regras mantêm longe dos comandos, porque as permissões dela foram alteradas. Torne a pasta legível para você de novo e tente outra vez.
tool_failed-edit_too_large = { $name } é grande demais para ser editado: o limite é { $limit } MB.
tool_failed-interrupted-read = A leitura de { $name } parou de repente, então ele não foi lido.
tool_failed-interrupted-edit = A edição de { $name } parou de repente, então nada foi alterado.
tool_failed-interrupted-trash = A ida de { $name } para a lixeira parou de repente. Veja na lixeira se ele está lá.
tool_failed-no_name = "{ $path }" não é o nome de um arquivo ou pasta.
tool_failed-special = { $name } não é um arquivo comum (é { $kind }), então o Ask First não o abre.
tool_failed-why-special = não é um arquivo comum (é { $kind }), então o Ask First não o abre
special_kind-pipe = um pipe nomeado
special_kind-device = um dispositivo
special_kind-socket = um socket
special_kind-folder = uma pasta
place-this_computer = um endereço neste computador
place-local_network = um endereço da sua rede local
place-internet = um endereço na internet
tool_failed-fetch-no_address = Não foi possível ler { $url }: nenhum endereço foi encontrado para { $host }.
tool_failed-fetch-leads_elsewhere = O Ask First não se conectou: { $url } foi mostrado a você como { $shown }, mas o nome { $host } leva a { $ip }, { $actual }.
tool_failed-fetch-redirect_not_web = { $from } encaminha o pedido para { $to }, que não é um endereço da web, então o Ask First não foi até lá.
tool_failed-fetch-redirect_elsewhere = { $from } encaminha o pedido para { $to } ({ $place }), que não é o endereço que você aprovou, então o Ask First não foi até lá. Se o assistente pedir esse endereço, você verá um cartão para ele.
tool_failed-fetch-redirect_elsewhere_unencrypted = { $from } encaminha o pedido para { $to } ({ $place }), que não é o endereço que você aprovou e não é criptografado, então o Ask First não foi até lá. Se o assistente pedir esse endereço, você verá um cartão para ele.
tool_failed-fetch-failed = Não foi possível ler { $url }: { $why }.
tool_failed-fetch-no_answer = { $url } não respondeu em { $wait }.
tool_failed-fetch-not_prepared = O Ask First não conseguiu preparar o pedido para { $url }: { $why }.
tool_failed-fetch-error_status = { $url } respondeu com um erro (código HTTP { $status }).
tool_failed-fetch-note-size_cap = Só os primeiros { $limit } MB foram lidos; o resto não foi baixado.
tool_failed-fetch-note-slow = O download levou mais de { $wait }; só aparece o que chegou até então.
tool_failed-fetch-note-broke_off = O download foi interrompido ({ $why }); só aparece o que chegou.
tool_failed-fetch-no_text = Não veio nenhum texto.
tool_failed-fetch-not_text = { $bytes ->
    [one] Veio um byte que não é texto, então ele não aparece.
   *[other] Vieram { $bytes } bytes que não são texto, então eles não aparecem.
}
tool_failed-fetch-sent = O que veio:
# O nome da pasta de demonstração no disco, dado uma vez quando ela é criada (um nome de pasta: sem "/").
demo-folder-name = Pasta de demonstração
demo-say-hello = Olá! Eu sou o assistente de demonstração. Vou arrumar a sua pasta de demonstração. Primeiro, deixe-me ver o que há nela.
demo-say-summary = Eu gostaria de escrever um breve resumo destes arquivos em um arquivo novo, summary.txt.
demo-say-archive = old-report.txt está desatualizado, então sugiro movê-lo para uma pasta Archive.
demo-say-done = Era tudo o que eu tinha planejado. Cada mudança esperou a sua resposta; a lista acima mostra o que foi feito e o que não foi.
demo-summary =
    Resumo da sua pasta
    - shopping-list.txt: cinco coisas para comprar (leite, ovos, pão, tomates, café).
    - meeting-notes.txt: a revisão do orçamento foi para quinta-feira; os planos de férias devem ser enviados até sexta-feira.
    - old-report.txt: o rascunho do relatório do ano passado, desatualizado.

## Outro agente dentro do Ask First (ACP): { $agent } é o nome dele ("Gemini CLI").
acp-not_started = Não foi possível iniciar o agente { $agent }: { $why }. Confira o comando dele em Configurações, em "Quem faz o trabalho".
acp-version = O agente { $agent } fala outra versão do protocolo ({ $version }) que o Ask First (1), então não pode trabalhar aqui.
acp-gave_up = O agente { $agent } encerrou a vez dele sem terminar a tarefa ({ $reason }).
acp-unknown_method = O agente { $agent } pediu ao Ask First algo que ele não oferece ({ $method }), então a tarefa foi interrompida.
acp-too_long = O agente { $agent } enviou uma mensagem maior do que o Ask First aceita ({ $limit } MB), então a tarefa foi interrompida.
acp-not_json = O agente { $agent } enviou algo que não é uma mensagem do protocolo dele, então a tarefa foi interrompida.
acp-exited = O agente { $agent } parou no meio da tarefa. O que ele disse por último está em "Detalhes".
acp-hung = O agente { $agent } ficou { $seconds } segundos sem dizer nada, então a tarefa foi interrompida.
acp-flood = O agente { $agent } enviou mais de { $count } mensagens para uma só tarefa, então a tarefa foi interrompida.
acp-sign_in = O agente { $agent } precisa que você entre na conta primeiro. Abra um terminal, execute { $program } uma vez e siga os passos para entrar; depois tente a tarefa de novo. O Ask First nunca vê os seus dados de acesso.
acp-refused = O agente { $agent } não aceitou a tarefa: { $why }
acp-card-summary = O agente { $agent } quer: { $title }
acp-card-reason = O agente { $agent } pede a sua permissão antes de fazer isto ele mesmo.
acp-does = { $agent }: { $title }
acp-card-not_ours = O Ask First só sabe o que o agente { $agent } diz sobre isto aqui. Se ele gravar um arquivo na sua pasta pelo Ask First, isso chega a você num cartão próprio, com o que muda.
acp-done_itself = O agente { $agent } diz que isto está feito.
