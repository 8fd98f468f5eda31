"""The Chinese and cross-lingual evaluation set's memories and questions,
which generate.py writes as eval-zh/*.md and questions.json: two team
memories (hand-written entries, and routine ones made from the lists below
with a seeded generator) and the questions, each naming the entry that
answers it (or none). The English memory is the evaluation set's.
"""

# The memories, as generate.py names them.
E = "team-engineering"
P = "team-product"
EN = "../eval/team-platform"

# 工程团队: hand-written entries per section; the facts are made from
# SERVICES, REGIONS and TEAMS.
ENGINEERING = {
"工程决策": [
 "2024-12-31: 所有后端服务的主库是 PostgreSQL 16",
 "2024-11-28: 内部服务之间用 gRPC 调用，对外接口保持 JSON over HTTPS",
 "2024-08-27: 埋点数据写入 ClickHouse，绝不写进主库",
 "2024-06-13: 功能开关统一放在 Unleash 里管理，每个产品一个项目",
 "2024-06-11: 日志发到 Loki，保留三十天",
 "2024-12-18: Redis 只做缓存，随时可以清空",
 "2025-04-07: 密钥和令牌一律从 Vault 读取，环境变量文件里不放敏感信息",
 "2025-05-22: 数据库迁移只能向前执行，回滚要写成一个新的迁移",
 "2024-10-24: 容器镜像由 Buildkite 构建并用 cosign 签名",
 "2024-09-23: Kubernetes 清单用 Helm chart 模板化，放在 infra/charts 目录",
 "2024-10-02: 搜索功能基于 OpenSearch，每个租户一个索引",
 "2024-12-02: 消息队列用 NATS JetStream 替换了 RabbitMQ",
 "2024-07-15: 新服务默认部署在法兰克福区域",
 "2025-03-18: 数据库里的时间一律按 UTC 存储",
 "2024-10-15: 错误追踪用 Sentry，采样率百分之二十",
 "2025-02-26: 移动端用 React Native 开发",
 "2024-08-19: 图片和附件存在兼容 S3 的对象存储里",
 "2025-03-03: 前端统一用 TypeScript 严格模式",
],
"约定": [
 "2025-01-15: 生产环境只在周二和周四发版",
 "2024-07-08: 每周一上午十点开工程例会，地点在三楼大会议室",
 "2025-02-10: 值班轮换每周交接一次，交接时间是周五下午",
 "2024-08-05: 代码合并前至少需要两位同事批准",
 "2025-05-06: 线上告警通过 PagerDuty 通知当周负责人",
 "2024-11-11: 备份每天凌晨两点做一次，异地保存九十天",
 "2025-04-21: 接口限流为每个密钥每分钟六百次请求",
 "2024-09-30: 依赖升级由 Renovate 每周一自动提合并请求",
 "2025-01-20: 单元测试覆盖率低于百分之七十的提交会被 CI 拦下",
 "2024-06-20: 文档站点用 Docusaurus 搭建",
 "2025-05-12: 内部工具的登录走公司的 Okta 单点登录",
 "2025-04-02: 每个季度做一次灾难恢复演练",
 "2024-10-29: 线上事故要在五个工作日内写完复盘",
 "2025-03-07: 分支名以工单号开头，例如 PLAT-1234-简短标题",
],
}

SERVICES = ["search-api","auth-api","profile-api","feed-api","ledger-api","geo-api","cart-api","notify-worker","image-resizer"]
REGIONS = ["eu-west-1","ap-south-1","eu-central-1"]
TEAMS = ["数据组","增长组","核心组","移动组","支付组","身份组"]

OPEN_QUESTIONS = [
 "2025-05-28: 是否要把 CI 从 Buildkite 迁到自建的 runner 还没定",
 "2025-05-15: 多区域写入的冲突处理方案仍在讨论",
]

# 产品团队: hand-written entries; the experiments are made from TOPICS and WEEKS.
PRODUCT = {
"产品决策": [
 "2025-02-17: 专业版每个席位每月 12 欧元，按年付费",
 "2024-07-29: 免费版最多三个项目和一个协作者",
 "2024-06-29: 桌面客户端在 2025-09-30 停止服务，由网页版取代",
 "2024-06-21: 手机应用支持离线编辑最近的二十篇文档",
 "2025-04-19: 深色模式在 5.2 版本向所有人开放",
 "2024-10-01: 专业版的文档历史保留九十天",
 "2024-06-27: 免费版导出的 PDF 带水印",
 "2024-07-30: 搜索结果优先显示最近编辑过的文档",
 "2024-09-25: 被同事邀请进来的新用户跳过新手引导",
 "2025-03-20: 团队版向管理员展示用量图表",
 "2025-05-09: 更新日志页面列出每个版本和发布日期",
 "2024-08-12: 企业版必须支持 SAML 单点登录",
 "2025-03-11: 退款申请在十四天内无条件受理",
],
"设计原则": [
 "2024-06-02: 空白页面总要给出一个下一步操作",
 "2024-12-09: 图标只用 Phosphor 图标库",
 "2025-04-17: 图表使用设计令牌中的分类色板",
 "2025-01-28: 营销页面可以使用品牌套件里的插画",
 "2024-11-20: 按钮文案用动词开头，不超过四个字",
 "2025-02-14: 错误提示要说明原因和下一步怎么做",
],
"客户情况": [
 "2024-11-05: 最大的客户是一家德国物流公司，有八百个席位",
 "2025-02-03: 客户最常抱怨的是导入 Word 文档时格式错乱",
 "2024-12-16: 教育行业客户大多在九月开学前集中续费",
],
"当前优先事项": [
 "2025-05-20: 本季度的首要目标是把试用转化率提高到百分之八",
 "2025-05-02: 下一个大版本的重点是实时协作编辑",
],
}

TOPICS = ["搜索建议","首页推荐","模板","评论","导入","提醒","权限","表格","版本历史","标签","日历视图","快捷键","分享链接","通知"]
WEEKS = ["两","三","四","六"]

# (memory, question, answer): questions that share no content word with
# their answer.
PARAPHRASE = [
(E,"我们的关系型数据库选的是什么？","主库是 PostgreSQL 16"),
(E,"后端各个模块彼此怎么通信？","内部服务之间用 gRPC 调用"),
(E,"用户行为统计最后存到哪里？","埋点数据写入 ClickHouse"),
(E,"灰度发布用什么工具控制？","功能开关统一放在 Unleash 里管理"),
(E,"运行记录能查多久以前的？","日志发到 Loki，保留三十天"),
(E,"内存键值存储里能放持久数据吗？","Redis 只做缓存"),
(E,"口令和凭据该放哪儿？","密钥和令牌一律从 Vault 读取"),
(E,"表结构改错了怎么撤销？","回滚要写成一个新的迁移"),
(E,"Docker 制品在哪条流水线里产出？","容器镜像由 Buildkite 构建"),
(E,"集群部署配置的模板在仓库哪个位置？","放在 infra/charts 目录"),
(E,"哪几天可以上线新版本？","生产环境只在周二和周四发版"),
(E,"技术团队的固定碰头会安排在什么时候？","每周一上午十点开工程例会"),
(E,"on-call 什么时候换人？","值班轮换每周交接一次"),
(E,"PR 要几个人审过才能进主干？","代码合并前至少需要两位同事批准"),
(E,"网页端代码开启了哪种类型检查？","前端统一用 TypeScript 严格模式"),
(E,"全文检索用的是哪个引擎？","搜索功能基于 OpenSearch"),
(E,"半夜出故障时用什么叫醒负责的人？","线上告警通过 PagerDuty 通知"),
(E,"数据多久复制一份以防丢失？","备份每天凌晨两点做一次"),
(E,"一个 API key 一分钟最多能调多少回？","接口限流为每个密钥每分钟六百次请求"),
(E,"异步任务之间靠什么中间件传递？","消息队列用 NATS JetStream"),
(E,"程序崩溃的报错上报到哪个平台？","错误追踪用 Sentry"),
(E,"手机 App 是拿什么框架写的？","移动端用 React Native 开发"),
(P,"付费套餐一个人一个月多少钱？","专业版每个席位每月 12 欧元"),
(P,"不花钱的用户能建几个工程？","免费版最多三个项目和一个协作者"),
(P,"电脑上安装的那个应用还会继续维护吗？","桌面客户端在 2025-09-30 停止服务"),
(P,"地铁里没信号时能在 iPhone 上修改稿件吗？","手机应用支持离线编辑最近的二十篇文档"),
(P,"夜间主题什么时候全量上线？","深色模式在 5.2 版本向所有人开放"),
(P,"付费用户能找回多久之前的旧稿？","文档历史保留九十天"),
(P,"不付费导出的文件上会多出什么？","免费版导出的 PDF 带水印"),
(P,"检索排序偏向哪些内容？","搜索结果优先显示最近编辑过的文档"),
(P,"受邀加入的人第一次登录会看到教程吗？","被同事邀请进来的新用户跳过新手引导"),
(P,"主管在哪里看使用情况的统计？","团队版向管理员展示用量图表"),
(P,"界面上的小图形从哪套素材里挑？","图标只用 Phosphor 图标库"),
(P,"一个列表什么内容都没有时应该显示什么？","空白页面总要给出一个下一步操作"),
(P,"在哪里能看到每次发布改了什么？","更新日志页面列出每个版本和发布日期"),
(P,"官网宣传页能放哪些配图？","营销页面可以使用品牌套件里的插画"),
(P,"数据可视化的配色从哪里取？","图表使用设计令牌中的分类色板"),
(P,"哪个客户买的账号最多？","最大的客户是一家德国物流公司"),
(P,"用户反馈里最多的问题是什么？","导入 Word 文档时格式错乱"),
(P,"这三个月最重要的指标是什么？","把试用转化率提高到百分之八"),
(P,"大公司客户要求的身份认证方式是什么？","企业版必须支持 SAML 单点登录"),
(P,"买了不满意多久之内能拿回钱？","退款申请在十四天内无条件受理"),
]

# English questions of Chinese entries, and Chinese questions of the
# English memory.
CROSS_LINGUAL = [
(E,"which relational database do we run?","主库是 PostgreSQL 16"),
(E,"on which weekdays can we release to production?","生产环境只在周二和周四发版"),
(E,"how long are logs kept?","日志发到 Loki，保留三十天"),
(E,"how many approvals does a pull request need before merging?","代码合并前至少需要两位同事批准"),
(E,"how often are backups taken?","备份每天凌晨两点做一次"),
(P,"how much does a paid seat cost per month?","专业版每个席位每月 12 欧元"),
(P,"is the desktop app being discontinued?","桌面客户端在 2025-09-30 停止服务"),
(P,"can the phone app edit documents offline?","手机应用支持离线编辑最近的二十篇文档"),
(P,"what is the refund policy?","退款申请在十四天内无条件受理"),
(P,"who is our biggest customer?","最大的客户是一家德国物流公司"),
(EN,"我们的关系型数据库是哪个？","Services use PostgreSQL 16"),
(EN,"哪几天可以往生产环境发版？","Production releases only ship on Tuesdays and Thursdays"),
(EN,"合并代码需要几个人批准？","Every pull request needs two approvals from code owners"),
(EN,"密码和密钥应该从哪里获取？","Secrets come from Vault"),
(EN,"客服用什么系统处理客户工单？","Support uses Zendesk for customer tickets"),
(EN,"预发布集群在哪个城市？","The staging cluster is stg-eu-2 in Frankfurt"),
(EN,"事故之后多久要交复盘报告？","Incidents get a written postmortem within five working days"),
(EN,"每周的工程例会在什么时候？","The weekly engineering meeting is Monday at 10:00 CET"),
(EN,"值班什么时候轮换？","On-call rotates every Wednesday at noon"),
(EN,"压力测试多久跑一次？","Load tests run with k6 against the perf environment every night"),
]

# (memory, question): what the memories do not hold.
NONE = [
(E,"公司的年会在哪里举办？"),
(E,"新员工的试用期是几个月？"),
(E,"办公室的无线网络叫什么名字？"),
(E,"我们给机器学习模型用的是哪家的 GPU？"),
(E,"团建预算每人多少钱？"),
(P,"产品的吉祥物叫什么名字？"),
(P,"我们在日本有多少付费客户？"),
(P,"下一次用户大会在哪个城市举行？"),
(P,"客服热线的电话号码是多少？"),
(P,"应用商店里的评分是几星？"),
]

# (memory, keywords, answer).
KEYWORD = [
(E,"Unleash 功能开关","功能开关统一放在 Unleash 里管理"),
(E,"Loki 日志保留","日志发到 Loki，保留三十天"),
(E,"值班轮换交接","值班轮换每周交接一次"),
(E,"Helm chart 模板","Kubernetes 清单用 Helm chart 模板化"),
(E,"Renovate 依赖升级","依赖升级由 Renovate 每周一自动提合并请求"),
(E,"Sentry 采样率","错误追踪用 Sentry，采样率百分之二十"),
(E,"灾难恢复演练","每个季度做一次灾难恢复演练"),
(E,"Okta 单点登录","内部工具的登录走公司的 Okta 单点登录"),
(E,"接口限流","接口限流为每个密钥每分钟六百次请求"),
(E,"覆盖率 CI","单元测试覆盖率低于百分之七十的提交会被 CI 拦下"),
(P,"PDF 水印","免费版导出的 PDF 带水印"),
(P,"深色模式","深色模式在 5.2 版本向所有人开放"),
(P,"Phosphor 图标库","图标只用 Phosphor 图标库"),
(P,"退款申请","退款申请在十四天内无条件受理"),
(P,"SAML 单点登录","企业版必须支持 SAML 单点登录"),
(P,"试用转化率","把试用转化率提高到百分之八"),
(P,"更新日志页面","更新日志页面列出每个版本和发布日期"),
(P,"德国物流公司","最大的客户是一家德国物流公司"),
(P,"新手引导","被同事邀请进来的新用户跳过新手引导"),
(P,"分类色板","图表使用设计令牌中的分类色板"),
]
